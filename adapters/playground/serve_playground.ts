/**
 * Serve the playground on localhost: four static files and the examples, all
 * from memory, under a strict Content-Security-Policy. Nothing is fetched
 * from anywhere else.
 *
 * @module
 */
import { PLAYGROUND_CSP, playgroundCss, playgroundHtml, playgroundScript } from "./playground_page.ts";
import type { PlaygroundExample } from "./load_examples.ts";

/** What {@linkcode servePlayground} serves. */
export interface PlaygroundOptions {
  /** The port; 0 picks a free one. */
  readonly port: number;
  /** The full ESM bundle's code (`dist/pab.min.js`). */
  readonly bundle: string;
  /** The examples, by name. */
  readonly examples: Readonly<Record<string, PlaygroundExample>>;
  /** Called once the server listens. */
  readonly onListen?: (url: string) => void;
  /** Stops the server when aborted (SIGTERM, say). */
  readonly signal?: AbortSignal;
}

/**
 * Start the playground's server on `localhost` (the only host pab's sandbox
 * may listen on). Stop it with `shutdown()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { servePlayground } from "./serve_playground.ts";
 * const server = servePlayground({ port: 0, bundle: "export const x = 1;", examples: {} });
 * const page = await fetch(`http://localhost:${server.addr.port}/`);
 * assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'self'/);
 * assert.match(await page.text(), /pab playground/);
 * await server.shutdown();
 * ```
 */
export function servePlayground(options: PlaygroundOptions): Deno.HttpServer<Deno.NetAddr> {
  const files: Record<string, readonly [string, string]> = {
    "/": [playgroundHtml(), "text/html; charset=utf-8"],
    "/style.css": [playgroundCss(), "text/css; charset=utf-8"],
    "/app.js": [playgroundScript(), "text/javascript; charset=utf-8"],
    "/pab.min.js": [options.bundle, "text/javascript; charset=utf-8"],
    "/examples.json": [JSON.stringify(options.examples), "application/json; charset=utf-8"],
    "/favicon.ico": ["", "image/x-icon"],
  };
  return Deno.serve({
    hostname: "localhost",
    port: options.port,
    ...(options.signal ? { signal: options.signal } : {}),
    onListen: (addr) => options.onListen?.(`http://localhost:${addr.port}/`),
  }, (request) => {
    const path = new URL(request.url).pathname;
    const file = Object.hasOwn(files, path) ? files[path] : undefined;
    const headers = {
      "content-security-policy": PLAYGROUND_CSP,
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
    };
    if (request.method !== "GET" && request.method !== "HEAD") {
      return new Response("only GET", { status: 405, headers: { ...headers, allow: "GET, HEAD" } });
    }
    if (!file) return new Response("not found", { status: 404, headers });
    return new Response(request.method === "HEAD" ? null : file[0], {
      headers: { ...headers, "content-type": file[1] },
    });
  });
}
