/**
 * The host of a URL as a browser reads it: percent-encoded bytes decoded
 * (`evil%2Ecom` is `evil.com`), bracketed IPv6 addresses in their one
 * canonical form (`[0:0::1]` is `[::1]`), and, fail closed, a host no grammar
 * here accepts kept as written, so a link with a scheme stays a link.
 *
 * Written without `URL`: the pure core also runs where `URL` is missing.
 *
 * @module
 */
import { canonicalHost } from "./entity_grammar.ts";

const PERCENT_RUN = /(?:%[0-9a-fA-F]{2})+/g;
/** What a host written in a link may hold when no grammar reads it: no space, quote, bracket, slash or `@`. */
const LOOSE_HOST = /^[\p{L}\p{M}\p{N}._~!$&'*+,;=-]*[\p{L}\p{N}][\p{L}\p{M}\p{N}._~!$&'*+,;=-]*$/u;
const HEXTET = /^[0-9a-f]{1,4}$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

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
 * assert.deepEqual(readUrlHost("[2001:DB8:0:0:0::1]"), { host: "[2001:db8::1]", port: "" });
 * assert.deepEqual(readUrlHost("my_site.example"), { host: "my_site.example", port: "" });
 * assert.equal(readUrlHost('"'), undefined);
 * ```
 */
export function readUrlHost(hostPort: string): UrlHost | undefined {
  if (hostPort.startsWith("[")) {
    const close = hostPort.indexOf("]");
    const port = close < 0 ? undefined : hostPort.slice(close + 1).match(/^(?::(\d*))?$/);
    const address = close < 0 ? undefined : canonicalIpv6(percentDecode(hostPort.slice(1, close)).toLowerCase());
    return port && address ? { host: `[${address}]`, port: port[1] ?? "" } : undefined;
  }
  const colon = hostPort.lastIndexOf(":");
  let host = hostPort;
  let port = "";
  if (colon >= 0 && /^\d*$/.test(hostPort.slice(colon + 1))) {
    [host, port] = [hostPort.slice(0, colon), hostPort.slice(colon + 1)];
  }
  const decoded = percentDecode(host).replace(/\.$/, "");
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

/**
 * The canonical text of an IPv6 address (RFC 5952, as the URL standard
 * writes it: lower case, no leading zeros, the first longest run of two or more
 * zero groups as `::`), or `undefined` when `text` is not one.
 */
export function canonicalIpv6(text: string): string | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groups = halves.map((half) => (half ? half.split(":") : []));
  const last = groups[groups.length - 1];
  const ipv4 = last.length ? IPV4.exec(last[last.length - 1]) : null;
  if (ipv4) {
    const bytes = ipv4.slice(1).map(Number);
    if (bytes.some((byte) => byte > 255)) return undefined;
    last.splice(last.length - 1, 1, (bytes[0] * 256 + bytes[1]).toString(16), (bytes[2] * 256 + bytes[3]).toString(16));
  }
  if (!groups.every((half) => half.every((group) => HEXTET.test(group)))) return undefined;
  const count = groups.reduce((sum, half) => sum + half.length, 0);
  if (halves.length === 1 ? count !== 8 : count > 7) return undefined;
  const zeros = halves.length === 1 ? [] : Array<string>(8 - count).fill("0");
  const values = [...groups[0], ...zeros, ...(groups[1] ?? [])].map((group) => parseInt(group, 16));
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; i++) {
    let end = i;
    while (end < 8 && values[end] === 0) end++;
    if (end - i > bestLength) [best, bestLength] = [i, end - i];
  }
  const hex = values.map((value) => value.toString(16));
  if (best < 0) return hex.join(":");
  return `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLength).join(":")}`;
}
