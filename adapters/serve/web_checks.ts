/**
 * What keeps a web page away from `pab serve` on localhost: the Host a request
 * names must be one the server listens on (DNS rebinding), a browser's
 * cross-site request is refused (`Origin`, `Sec-Fetch-Site`), and a body must
 * be declared `application/json` (no `text/plain` or form "simple requests",
 * which a page may send anywhere without asking).
 *
 * @module
 */
import { RequestError } from "./request_error.ts";

/** The names a loopback server answers to, without a port. */
export const LOOPBACK_NAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** The `Host` values (`name:port`) a server answers to. */
export interface HostNames {
  /** Whether `host` (lowercase `name:port`) is one of them. */
  has(host: string): boolean;
}

/**
 * Any loopback name on any port: what a handler accepts when it is not told
 * the port it is served on.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ANY_LOOPBACK } from "./web_checks.ts";
 * assert.equal(ANY_LOOPBACK.has("localhost:8080"), true);
 * assert.equal(ANY_LOOPBACK.has("localhost.evil.example:8080"), false);
 * ```
 */
export const ANY_LOOPBACK: HostNames = {
  has: (host) => {
    const colon = host.lastIndexOf(":");
    return LOOPBACK_NAMES.includes(host.slice(0, colon)) && /^\d{1,5}$/.test(host.slice(colon + 1));
  },
};

/**
 * The `Host` values a server on `hostname:port` accepts: the name it listens
 * on (every loopback name for a loopback or wildcard interface) with that
 * port, and any `extra` names (the machine's, a reverse proxy's), also with
 * the port.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listenedHosts } from "./web_checks.ts";
 * assert.deepEqual([...listenedHosts("localhost", 4517)], ["localhost:4517", "127.0.0.1:4517", "[::1]:4517"]);
 * ```
 */
export function listenedHosts(hostname: string, port: number, extra: readonly string[] = []): Set<string> {
  const name = hostname.toLowerCase();
  const shown = name.includes(":") && !name.startsWith("[") ? `[${name}]` : name;
  // A wildcard interface listens on loopback too; its other names are the host's, given as `extra`.
  const wildcard = shown === "0.0.0.0" || shown === "[::]";
  const names = LOOPBACK_NAMES.includes(shown) || wildcard ? LOOPBACK_NAMES : [shown];
  return new Set([...names, ...extra.map((host) => host.toLowerCase())].map((host) => `${host}:${port}`));
}

/**
 * Refuse a request a web page could have sent: a `Host` outside `hosts`
 * (403 `ERR_REQUEST_HOST`), an `Origin` other than the server's own or a
 * `Sec-Fetch-Site` other than `same-origin`/`none` (403
 * `ERR_REQUEST_ORIGIN`), and, when `body` is true, a `Content-Type` other than
 * `application/json` (415 `ERR_REQUEST_CONTENT_TYPE`). Clients that are not
 * browsers send no `Origin` and pass.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkWebRequest, listenedHosts } from "./web_checks.ts";
 * const hosts = listenedHosts("localhost", 4517);
 * const json = { "content-type": "application/json" };
 * checkWebRequest(new Request("http://localhost:4517/v1/sessions", { method: "POST", headers: json }), hosts, true);
 * assert.throws(
 *   () => checkWebRequest(new Request("http://evil.example:4517/v1/sessions", { method: "POST", headers: json }), hosts, true),
 *   { code: "ERR_REQUEST_HOST" },
 * );
 * assert.throws(
 *   () => checkWebRequest(new Request("http://localhost:4517/v1/sessions", { method: "POST", headers: { "content-type": "text/plain" } }), hosts, true),
 *   { code: "ERR_REQUEST_CONTENT_TYPE" },
 * );
 * ```
 */
export function checkWebRequest(request: Request, hosts: HostNames, body: boolean): void {
  const host = hostOf(request);
  if (host === undefined || !hosts.has(host)) {
    throw new RequestError(
      "ERR_REQUEST_HOST",
      `Cannot serve a request for host ${
        quoted(host)
      }: this server answers only to the names it listens on (a page that rebinds a DNS name to this machine names its own host; add a name with --allow-host)`,
    );
  }
  const origin = request.headers.get("origin");
  if (origin !== null && !hosts.has(originHost(origin) ?? "")) {
    throw new RequestError(
      "ERR_REQUEST_ORIGIN",
      `Cannot serve a request from origin ${quoted(origin)}: browsers may call pab serve only from its own origin`,
    );
  }
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") {
    throw new RequestError(
      "ERR_REQUEST_ORIGIN",
      `Cannot serve a ${quoted(site)} request: browsers may call pab serve only from its own origin`,
    );
  }
  if (body && !isJsonType(request.headers.get("content-type"))) {
    throw new RequestError(
      "ERR_REQUEST_CONTENT_TYPE",
      `Cannot read a body of type ${
        quoted(request.headers.get("content-type"))
      }: send "Content-Type: application/json"`,
    );
  }
}

/** Whether a Content-Type header is `application/json`, with at most a UTF-8 charset. */
export function isJsonType(header: string | null): boolean {
  if (header === null) return false;
  if (header === "application/json") return true;
  const [type, ...parameters] = header.split(";").map((part) => part.trim().toLowerCase());
  if (type !== "application/json") return false;
  return parameters.every((parameter) => /^charset="?utf-8"?$/.test(parameter));
}

function hostOf(request: Request): string | undefined {
  const header = request.headers.get("host");
  if (header === null) {
    // A Request made in process (no Host header): its URL names the host.
    try {
      return withPort(new URL(request.url));
    } catch {
      return undefined;
    }
  }
  const host = header.trim().toLowerCase();
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/.test(host)) return undefined;
  return /:\d+$/.test(host) ? host : `${host}:80`;
}

function originHost(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === "http:" ? withPort(url) : undefined;
  } catch {
    return undefined;
  }
}

function withPort(url: URL): string {
  return `${url.hostname.toLowerCase()}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
}

function quoted(value: string | null | undefined): string {
  return value === null || value === undefined ? "(none)" : JSON.stringify(value.slice(0, 200));
}
