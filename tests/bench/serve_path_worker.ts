/**
 * A worker thread for `serve_path_ab.ts` in worker mode. With `?root=DIR`,
 * a worker of `startWorkerServer` from the checkout at DIR over a stub host
 * (each call answered at once with a fixed decision: no guard or store
 * runs); with `?bare`, a bare `Deno.serve` that joins the port it is sent
 * (`SO_REUSEPORT`), the floor of a server whose workers share a port.
 *
 * @module
 */
import { Guard } from "../../guard/mod.ts";
import { benchPolicy } from "../../adapters/cli/bench/serve_load.ts";

const params = new URL(import.meta.url).searchParams;
const root = params.get("root");

if (root !== null) {
  const serve: typeof import("../../adapters/serve/mod.ts") = await import(
    new URL("adapters/serve/mod.ts", `file://${root}/`).href
  );
  // A decision with a gap, as the bench's blocked calls have.
  const guard = new Guard(benchPolicy());
  guard.record("read_inbox", "Message from carol1.2@corp.example about the report");
  const decision = guard.decide("send_email", { to: "carol1.2@corp.example" });
  serve.serveAsWorker((_config, options) => {
    // The stub has what the routes and the worker call; the rest of a host is never reached.
    const host = {
      limits: serve.DEFAULT_LIMITS,
      store: { description: "stub", close() {} },
      create: () => Promise.resolve(options.sessionIds!()),
      authorize: () => Promise.resolve("ledger"),
      message: () => Promise.resolve(),
      result: () => Promise.resolve(),
      decide: () => Promise.resolve(decision),
      delete: () => Promise.resolve(),
      expireIdle() {},
    } as unknown as InstanceType<typeof serve.SessionHost>;
    return Promise.resolve({ host });
  });
} else {
  const scope = globalThis as unknown as {
    onmessage: ((event: MessageEvent<{ port: number } | "stop">) => void) | null;
    postMessage(message: unknown): void;
  };
  let server: Deno.HttpServer | undefined;
  let sessions = 0;
  scope.onmessage = async ({ data }) => {
    if (data !== "stop") {
      const options = { hostname: "localhost", port: data.port, reusePort: true, onListen() {} };
      server = Deno.serve(options, async (request) => {
        const path = new URL(request.url).pathname;
        const text = await request.text();
        const body = text ? JSON.parse(text) : {};
        if (path === "/v1/sessions") {
          return Response.json({ session: `s_${sessions++}`, token: "bare" }, { status: 201 });
        }
        if (path.endsWith("/decide")) return Response.json({ decision: { tool: body.tool, args: body.args } });
        return Response.json({ ok: true });
      });
      scope.postMessage((server.addr as Deno.NetAddr).port);
    } else {
      await server?.shutdown();
      scope.postMessage("stopped");
    }
  };
}
