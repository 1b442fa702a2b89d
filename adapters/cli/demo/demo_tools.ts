/**
 * The demo's tools, each a real `fetch` to the mock services.
 *
 * @module
 */
import type { ToolFunction } from "../../../guard/mod.ts";
import type { SentEmail } from "./mock_services.ts";

/**
 * The host the demo's intranet pages pretend to live on; `fetch_page` maps it to the mock server.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { INTRANET_HOST } from "./demo_tools.ts";
 * assert.deepEqual(INTRANET_HOST, "intranet.corp.example");
 * ```
 */
export const INTRANET_HOST = "intranet.corp.example";

/**
 * The demo's tools and the mail server's outbox.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type DemoTools, makeDemoTools } from "./demo_tools.ts";
 * const demo: DemoTools = makeDemoTools("http://localhost:8000");
 * assert.deepEqual(Object.keys(demo.tools), ["read_inbox", "fetch_page", "send_email"]);
 * ```
 */
export interface DemoTools {
  /** The tools, by name: `read_inbox`, `fetch_page` and `send_email`. */
  readonly tools: Readonly<Record<string, ToolFunction>>;
  /** What the mock mail server has accepted. */
  outbox(): Promise<SentEmail[]>;
  /** Empty the outbox. */
  clearOutbox(): Promise<void>;
}

/**
 * Tools that talk to the mock services at `baseUrl`: `read_inbox()` returns the
 * inbox as JSON text, `fetch_page({url})` returns an intranet page's HTML, and
 * `send_email({to, subject, body})` posts to the outbox.
 *
 * @example
 * ```ts ignore
 * import { makeDemoTools } from "./demo_tools.ts";
 * const demo = makeDemoTools("http://localhost:8000");
 * const inbox = await demo.tools.read_inbox({});
 * ```
 */
export function makeDemoTools(baseUrl: string): DemoTools {
  const request = async (method: string, path: string, body?: unknown): Promise<string> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} failed with HTTP ${response.status}: ${text}`);
    return text;
  };
  return {
    tools: {
      read_inbox: () => request("GET", "/inbox"),
      fetch_page: (args) => {
        const url = new URL(String(args.url));
        if (url.hostname !== INTRANET_HOST) {
          throw new Error(`fetch_page reaches only ${INTRANET_HOST}, not ${url.host}`);
        }
        return request("GET", `/web${url.pathname}`);
      },
      send_email: async (args) => {
        const sent = JSON.parse(await request("POST", "/outbox", args));
        return `sent message ${sent.id} to ${sent.to}`;
      },
    },
    outbox: async () => JSON.parse(await request("GET", "/outbox")),
    clearOutbox: async () => void await request("DELETE", "/outbox"),
  };
}
