/**
 * The bound on client connections served at once: a connection counts while
 * it has a request in flight; past the cap a new one is answered 503
 * `ERR_OVERLOADED` and closed.
 *
 * @module
 */
import { errorAnswer } from "./error_answer.ts";
import { RequestError } from "./request_error.ts";
import { localTally, type SessionTally } from "./session_tally.ts";

/** Serve a request of a connection within the cap. */
export type ConnectionGate = (
  request: Request,
  info: Deno.ServeHandlerInfo,
  serve: () => Promise<Response>,
) => Promise<Response>;

/**
 * A gate letting at most `max` connections have requests in flight, counted
 * in `busy` (this gate's own by default; a shared tally keeps one cap for the
 * worker threads that each accept connections on one port).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { connectionGate } from "./connection_gate.ts";
 * const gate = connectionGate(1);
 * const peer = (port: number) => ({ remoteAddr: { transport: "tcp", hostname: "127.0.0.1", port } }) as Deno.ServeHandlerInfo;
 * let release = () => {};
 * const slow = gate(new Request("http://localhost/"), peer(1), () => new Promise((done) => release = () => done(new Response("a"))));
 * const refused = await gate(new Request("http://localhost/"), peer(2), () => Promise.resolve(new Response("b")));
 * assert.equal(refused.status, 503);
 * release();
 * assert.equal((await slow).status, 200);
 * ```
 */
export function connectionGate(max: number, busy: SessionTally = localTally()): ConnectionGate {
  const connections = new Map<string, number>();
  return async (request, info, serve) => {
    const address = info.remoteAddr as Deno.NetAddr;
    const peer = `${address.hostname}:${address.port}`;
    const active = connections.get(peer);
    if (active === undefined && !busy.claim(max)) {
      await request.body?.cancel().catch(() => {});
      return errorAnswer(
        new RequestError("ERR_OVERLOADED", `Cannot serve another connection now: ${busy.count} are busy`),
        { connection: "close" },
      );
    }
    connections.set(peer, (active ?? 0) + 1);
    try {
      return await serve();
    } finally {
      const left = (connections.get(peer) ?? 1) - 1;
      if (left > 0) connections.set(peer, left);
      else {
        connections.delete(peer);
        busy.add(-1);
      }
    }
  };
}
