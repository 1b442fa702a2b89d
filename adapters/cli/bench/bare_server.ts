/**
 * The HTTP floor for `pab bench serve --bare`: a bare `Deno.serve` that
 * answers the bench's requests as `pab serve` would in shape (a session made,
 * a body read and parsed, a small JSON answer), with no guard, host or store
 * behind it, so what HTTP alone costs on this machine can be read beside the
 * server's own figures.
 *
 * @module
 */

/** A bare server: where it listens, and how to stop it. */
export interface BareServer {
  /** Its base URL. */
  readonly url: string;
  /** Stop it. */
  shutdown(): Promise<void>;
}

/**
 * Start a bare server on a free localhost port.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startBareServer } from "./bare_server.ts";
 * const server = startBareServer();
 * const made = await (await fetch(`${server.url}/v1/sessions`, { method: "POST", body: "{}" })).json();
 * assert.equal(typeof made.token, "string");
 * const decided = await fetch(`${server.url}/v1/sessions/${made.session}/decide`, {
 *   method: "POST",
 *   body: JSON.stringify({ tool: "send_email", args: { to: "a@corp.example" } }),
 * });
 * assert.equal((await decided.json()).decision.tool, "send_email");
 * await server.shutdown();
 * ```
 */
export function startBareServer(): BareServer {
  let sessions = 0;
  const server = Deno.serve({ hostname: "localhost", port: 0, onListen() {} }, async (request) => {
    const path = new URL(request.url).pathname;
    // A DELETE (the warm-up's sessions going) has no body.
    const text = await request.text();
    const body = text ? JSON.parse(text) : {};
    if (path === "/v1/sessions") return Response.json({ session: `s_${sessions++}`, token: "bare" }, { status: 201 });
    if (path.endsWith("/decide")) return Response.json({ decision: { tool: body.tool, args: body.args } });
    return Response.json({ ok: true });
  });
  return { url: `http://localhost:${server.addr.port}`, shutdown: () => server.shutdown() };
}
