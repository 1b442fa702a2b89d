/**
 * A `Deno.serve` that outlives a failure to accept connections. Deno ends a
 * server whose accept fails (its `finished` rejects), and the usual cause is
 * one clients choose: holding connections open until the process has no file
 * descriptors left (`Deno.serve` has no deadline for an idle connection or a
 * request head that never ends). Ended, a server on one thread exits and one
 * with worker threads stops accepting for good; this one listens again on
 * the same port, waiting longer after each failed attempt, until it can or
 * is shut down. The sessions it holds live on.
 *
 * @module
 */

/** The part of `Deno.HttpServer` the servers of `pab serve` use. */
export interface LastingServer {
  /** The address it listens on (the port stays the same when it listens again). */
  readonly addr: Deno.NetAddr;
  /** Resolves once it was shut down and its last requests finished. */
  readonly finished: Promise<void>;
  /** Stop listening (and listening again) and finish the requests in flight. */
  shutdown(): Promise<void>;
  /** How many times it listened again after an accept failure. */
  readonly relistens: number;
}

/** Milliseconds before the first attempt to listen again, and the most between attempts. */
export interface RelistenDelays {
  readonly firstMs: number;
  readonly mostMs: number;
}

const DELAYS: RelistenDelays = { firstMs: 50, mostMs: 2000 };

/**
 * Serve as `Deno.serve(options, handler)` does, listening again (on the port
 * the first server got) whenever the current server ends on an accept
 * failure. Throws what `Deno.serve` throws for the first listen (a port in
 * use, a denied interface).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lastingServe } from "./lasting_server.ts";
 * const server = lastingServe({ hostname: "localhost", port: 0, onListen() {} }, () => new Response("ok"));
 * const response = await fetch(`http://localhost:${server.addr.port}/`);
 * assert.equal(await response.text(), "ok");
 * await server.shutdown();
 * await server.finished;
 * assert.equal(server.relistens, 0);
 * ```
 */
export function lastingServe(
  options: Deno.ServeTcpOptions,
  handler: Deno.ServeHandler<Deno.NetAddr>,
  delays: RelistenDelays = DELAYS,
): LastingServer {
  let current = Deno.serve(options, handler);
  const addr = current.addr;
  let stopped = false;
  let relistens = 0;
  let wake = () => {};
  let finish = () => {};
  const finished = new Promise<void>((resolve) => finish = resolve);
  const relisten = async () => {
    for (let wait = delays.firstMs; !stopped; wait = Math.min(wait * 2, delays.mostMs)) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        wake = () => (clearTimeout(timer), resolve());
      });
      if (stopped) break;
      try {
        current = Deno.serve({ ...options, port: addr.port }, handler);
        relistens++;
        watch(current);
        return;
      } catch {
        // Still no descriptor to spare (or the port is briefly taken): wait longer, then try again.
      }
    }
    finish();
  };
  const watch = (server: Deno.HttpServer<Deno.NetAddr>) =>
    server.finished.then(finish, () => stopped ? finish() : void relisten());
  watch(current);
  return {
    addr,
    finished,
    get relistens() {
      return relistens;
    },
    shutdown: async () => {
      stopped = true;
      wake();
      await current.shutdown().catch(() => {});
      await finished;
    },
  };
}
