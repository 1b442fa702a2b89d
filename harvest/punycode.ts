/**
 * Host names in one form: IDNA's ASCII form (RFC 3492 punycode), so that a
 * Unicode host and its `xn--` form are the same host.
 *
 * Written here rather than taken from `URL` because the pure core also runs
 * where `URL` is missing (QuickJS), and the encoder is small.
 *
 * @module
 */

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;
const MAX_LABEL = 63;
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * The ASCII form of a host already folded by NFKC and lower-cased: every label
 * with a non-ASCII character becomes `xn--` and its punycode; labels that are
 * already ASCII (including `xn--` ones) are kept. Returns `undefined` for a
 * label that cannot be encoded (too long).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toAsciiHost } from "./punycode.ts";
 * assert.equal(toAsciiHost("bücher.example"), "xn--bcher-kva.example");
 * assert.equal(toAsciiHost("xn--bcher-kva.example"), "xn--bcher-kva.example");
 * ```
 */
export function toAsciiHost(host: string): string | undefined {
  if (!NON_ASCII.test(host)) return host;
  const labels = host.split(".");
  for (let i = 0; i < labels.length; i++) {
    if (!NON_ASCII.test(labels[i])) continue;
    const encoded = encodeLabel(labels[i]);
    if (encoded === undefined || encoded.length + 4 > MAX_LABEL) return undefined;
    labels[i] = `xn--${encoded}`;
  }
  return labels.join(".");
}

function adapt(delta: number, points: number, first: boolean): number {
  delta = first ? Math.floor(delta / DAMP) : delta >> 1;
  delta += Math.floor(delta / points);
  let k = 0;
  while (delta > ((BASE - T_MIN) * T_MAX) >> 1) {
    delta = Math.floor(delta / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * delta) / (delta + SKEW));
}

function digit(d: number): string {
  return String.fromCharCode(d < 26 ? d + 97 : d + 22);
}

/** RFC 3492 section 6.3, over code points. */
function encodeLabel(label: string): string | undefined {
  const input = Array.from(label, (char) => char.codePointAt(0)!);
  if (input.length > MAX_LABEL) return undefined;
  let output = "";
  for (const code of input) if (code < 0x80) output += String.fromCharCode(code);
  const basic = output.length;
  let handled = basic;
  if (basic) output += "-";
  let n = INITIAL_N;
  let delta = 0;
  let bias = INITIAL_BIAS;
  while (handled < input.length) {
    let next = Infinity;
    for (const code of input) if (code >= n && code < next) next = code;
    delta += (next - n) * (handled + 1);
    n = next;
    for (const code of input) {
      if (code < n) delta++;
      if (code !== n) continue;
      let q = delta;
      for (let k = BASE;; k += BASE) {
        const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
        if (q < t) break;
        output += digit(t + ((q - t) % (BASE - t)));
        q = Math.floor((q - t) / (BASE - t));
      }
      output += digit(q);
      bias = adapt(delta, handled + 1, handled === basic);
      delta = 0;
      handled++;
    }
    delta++;
    n++;
  }
  return output;
}
