/**
 * Which last labels make a bare dotted name a web host: the top-level domains
 * delegated in the DNS root zone, as the ICANN section of the Public Suffix
 * List names them, and the names reserved for private and test use
 * (`example`, `test`, `invalid`, `localhost`, `local`, `onion`, `internal`,
 * `alt`). `error.message`, `call.tool` and `import.meta.url` end in no top-level
 * domain: no resolver on the Internet finds them, so they are names in code.
 *
 * The list is held as a Bloom filter (`_tld_filter.ts`, 8,192 bits and four
 * hashes: 1,366 characters, made by `adapters/build/tld_filter.ts` from the
 * Public Suffix List): a delegated domain is always found; about one other
 * label in fourteen is found too and read as a host (the stricter answer).
 * Against 10,240 bits and five hashes (one in twenty-seven), this size keeps
 * the core bundle about 310 bytes smaller gzipped. A top-level domain delegated after the
 * list was made is not found, so a bare name under it (no scheme, `www.`,
 * port or path) is read as code until the list is made again.
 *
 * @module
 */
import { TLD_FILTER } from "./_tld_filter.ts";

/** Names reserved for test, documentation and private networks (RFC 2606, 6761, 6762, 7686; ICANN's `internal`). */
const RESERVED: ReadonlySet<string> = new Set([
  "example",
  "test",
  "invalid",
  "localhost",
  "local",
  "onion",
  "internal",
  "alt",
]);

/** The filter's shape: bits and hash functions. */
export const TLD_FILTER_BITS = 8192;
export const TLD_FILTER_HASHES = 4;

/**
 * The bit positions of a label in the filter: double hashing over two FNV-1a
 * hashes of its UTF-16 code units.
 */
export function tldFilterPositions(label: string): number[] {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ label.length;
  for (let i = 0; i < label.length; i++) {
    const code = label.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ code, 0x5bd1e995) >>> 0;
    h2 ^= h2 >>> 15;
  }
  h2 = (h2 | 1) >>> 0;
  const positions: number[] = [];
  for (let i = 0; i < TLD_FILTER_HASHES; i++) positions.push(((h1 + Math.imul(i, h2)) >>> 0) % TLD_FILTER_BITS);
  return positions;
}

/**
 * A filter's bits, written as text in the 64 characters below, six bits a
 * character: the characters the minified core bundle uses most (quotes,
 * backslash, `$` and `<` left out), so gzip's codes for them are already
 * short. The core bundle gzips about 160 bytes smaller than with base64's letters.
 */
const ALPHABET = "etrno si.()=,laucfdh{};:pgm&[]0vb?wy1|#!>+-2jkOxA/C3S_Ez6M45N8TI";

/**
 * Make the filter's text for a list of top-level domains (lower case, IDNA
 * ASCII form): what `_tld_filter.ts` holds.
 */
export function writeTldFilter(tlds: Iterable<string>): string {
  const bits = new Uint8Array(TLD_FILTER_BITS);
  for (const tld of tlds) for (const position of tldFilterPositions(tld)) bits[position] = 1;
  let text = "";
  for (let i = 0; i < TLD_FILTER_BITS; i += 6) {
    let value = 0;
    for (let j = 0; j < 6; j++) value = (value << 1) | (bits[i + j] ?? 0);
    text += ALPHABET[value];
  }
  return text;
}

let decoded: Uint8Array | undefined;

function filterBits(): Uint8Array {
  if (decoded) return decoded;
  const bits = new Uint8Array(TLD_FILTER_BITS);
  for (let i = 0; i < TLD_FILTER.length; i++) {
    const value = ALPHABET.indexOf(TLD_FILTER[i]);
    for (let j = 0; j < 6; j++) bits[i * 6 + j] = (value >> (5 - j)) & 1;
  }
  return decoded = bits;
}

/**
 * Whether a label (lower case, IDNA ASCII form) is a top-level domain: a
 * delegated one (or, rarely, a label the filter cannot tell from one) or a
 * reserved one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isTopLevelDomain } from "./top_level_domains.ts";
 * assert.equal(isTopLevelDomain("com"), true);
 * assert.equal(isTopLevelDomain("uk"), true);
 * assert.equal(isTopLevelDomain("xn--p1ai"), true); // .рф
 * assert.equal(isTopLevelDomain("example"), true);
 * assert.equal(isTopLevelDomain("message"), false);
 * ```
 */
export function isTopLevelDomain(label: string): boolean {
  if (RESERVED.has(label)) return true;
  const bits = filterBits();
  return tldFilterPositions(label).every((position) => bits[position] === 1);
}
