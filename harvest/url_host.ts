/**
 * The host of a URL as a browser reads it: percent-encoded bytes decoded
 * (`evil%2Ecom` is `evil.com`), bracketed IPv6 addresses (in lower case), and,
 * fail closed, a host no grammar here accepts kept as written, so a link with
 * a scheme stays a link.
 *
 * Written without `URL`: the pure core also runs where `URL` is missing.
 *
 * @module
 */
import { canonicalHost } from "./entity_grammar.ts";
import { isDigits } from "./word_window.ts";

const PERCENT_RUN = /(?:%[0-9a-fA-F]{2})+/g;
/** What a host written in a link may hold when no grammar reads it: no space, quote, bracket, slash or `@`. */
const LOOSE_HOST = /^[\p{L}\p{M}\p{N}._~!$&'*+,;=-]*[\p{L}\p{N}][\p{L}\p{M}\p{N}._~!$&'*+,;=-]*$/u;
/** What a bracketed IPv6 host holds (kept as written, in lower case: two spellings of one address differ, stricter). */
const IPV6 = /^[0-9a-f.]*:[0-9a-f:.]*$/;

/** A host and its port as they follow the scheme. */
export interface UrlHost {
  /** The canonical host: IDNA ASCII, `[ipv6]`, or (fail closed) the decoded host in lower case. */
  readonly host: string;
  /** The port as written, or empty. */
  readonly port: string;
}

/**
 * Read `host[:port]` from a URL's authority (without userinfo); `undefined`
 * when there is no host at all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readUrlHost } from "./url_host.ts";
 * assert.deepEqual(readUrlHost("Evil%2Ecom:8080"), { host: "evil.com", port: "8080" });
 * assert.deepEqual(readUrlHost("[2001:DB8::1]:8080"), { host: "[2001:db8::1]", port: "8080" });
 * assert.deepEqual(readUrlHost("my_site.example"), { host: "my_site.example", port: "" });
 * assert.equal(readUrlHost('"'), undefined);
 * ```
 */
export function readUrlHost(hostPort: string): UrlHost | undefined {
  if (hostPort.startsWith("[")) {
    const close = hostPort.indexOf("]");
    const port = close < 0 ? undefined : hostPort.slice(close + 1).match(/^(?::(\d*))?$/);
    const address = close < 0 ? "" : percentDecode(hostPort.slice(1, close)).toLowerCase();
    return port && IPV6.test(address) ? { host: `[${address}]`, port: port[1] ?? "" } : undefined;
  }
  const colon = hostPort.lastIndexOf(":");
  let host = hostPort;
  let port = "";
  if (colon >= 0 && isDigits(hostPort, colon + 1, hostPort.length)) {
    host = hostPort.slice(0, colon);
    port = hostPort.slice(colon + 1);
  }
  const unescaped = percentDecode(host);
  const decoded = unescaped.endsWith(".") ? unescaped.slice(0, -1) : unescaped;
  const canonical = canonicalHost(decoded, true);
  if (canonical) return { host: canonical, port };
  return LOOSE_HOST.test(decoded) ? { host: decoded.toLowerCase(), port } : undefined;
}

/**
 * `text` with each run of `%XX` escapes decoded as UTF-8; a run that is not
 * UTF-8 is kept as written.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { percentDecode } from "./url_host.ts";
 * assert.equal(percentDecode("eve%40evil%2ecom %E2%82%AC %ff"), "eve@evil.com € %ff");
 * ```
 */
export function percentDecode(text: string): string {
  if (!text.includes("%")) return text;
  return text.replace(PERCENT_RUN, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
