/**
 * Which last labels make a bare dotted name a web host: the top-level domains
 * delegated in the DNS root zone, as the ICANN section of the Public Suffix
 * List names them, and the names reserved for private and test use
 * (`example`, `test`, `invalid`, `localhost`, `local`, `onion`, `internal`,
 * `alt`). `error.message`, `call.tool` and `import.meta.url` end in no top-level
 * domain: no resolver on the Internet finds them, so they are names in code.
 *
 * The list is held as an xor filter (`_tld_filter.ts`, three segments of 622
 * four-bit slots: 1,244 characters, made by `adapters/build/tld_filter.ts`
 * from the Public Suffix List): a delegated domain is always found; about one
 * other label in sixteen is found too and read as a host (the stricter
 * answer). A Bloom filter of 10,240 bits and five hashes found one in
 * twenty-seven, and one of 8,192 bits and four hashes one in fourteen; this
 * one keeps the core bundle about 450 and 150 bytes smaller gzipped than they
 * did. A top-level domain delegated after the
 * list was made is not found, so a bare name under it (no scheme, `www.`,
 * port or path) is read as code until the list is made again.
 *
 * @module
 */
import { TLD_FILTER, TLD_FILTER_SEED } from "./_tld_filter.ts";

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

/** The filter's shape: three segments of this many 4-bit slots. */
export const TLD_FILTER_SEGMENT = 622;

/**
 * A label's three slots in the filter (one in each segment) and its 4-bit
 * fingerprint, last: double hashing over two FNV-1a hashes of its UTF-16 code
 * units, the first started from `seed`.
 */
export function tldFilterSlots(label: string, seed: number): number[] {
  let h1 = (0x811c9dc5 ^ seed) >>> 0;
  let h2 = 0x01000193 ^ label.length;
  for (let i = 0; i < label.length; i++) {
    const code = label.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ code, 0x5bd1e995) >>> 0;
    h2 ^= h2 >>> 15;
  }
  h2 = (h2 | 1) >>> 0;
  const slots: number[] = [];
  for (let i = 0; i < 3; i++) {
    slots.push((((h1 + Math.imul(i, h2)) >>> 0) % TLD_FILTER_SEGMENT) + i * TLD_FILTER_SEGMENT);
  }
  slots.push((h1 ^ h2) >>> 28);
  return slots;
}

/**
 * A filter's bits, written as text in the 64 characters below, six bits a
 * character: the characters the minified core bundle uses most (quotes,
 * backslash, `$` and `<` left out), so gzip's codes for them are already
 * short. The core bundle gzips about 160 bytes smaller than with base64's letters.
 */
const ALPHABET = "etrno si.()=,laucfdh{};:pgm&[]0vb?wy1|#!>+-2jkOxA/C3S_Ez6M45N8TI";

/**
 * Make the filter for a list of top-level domains (lower case, IDNA ASCII
 * form): the seed its hashes start from and its text, what `_tld_filter.ts`
 * holds. Each domain's three slots XOR to its fingerprint (an xor filter):
 * the slots are filled by peeling, the first seed that peels every domain wins.
 */
export function writeTldFilter(tlds: Iterable<string>): { readonly seed: number; readonly text: string } {
  const labels = [...new Set(tlds)];
  for (let seed = 0; seed < 1000; seed++) {
    const slots = fillSlots(labels.map((label) => tldFilterSlots(label, seed)));
    if (!slots) continue;
    const bits = [...slots].flatMap((value) => [value >> 3, value >> 2, value >> 1, value].map((bit) => bit & 1));
    let text = "";
    for (let i = 0; i < bits.length; i += 6) {
      let value = 0;
      for (let j = 0; j < 6; j++) value = (value << 1) | (bits[i + j] ?? 0);
      text += ALPHABET[value];
    }
    return { seed, text };
  }
  throw new RangeError(`Cannot fit ${labels.length} top-level domains in the filter: raise TLD_FILTER_SEGMENT`);
}

/** The slot values that make each key's three slots XOR to its fingerprint, or `undefined` when peeling stalls. */
function fillSlots(keys: readonly number[][]): Uint8Array | undefined {
  const size = 3 * TLD_FILTER_SEGMENT;
  const count = new Uint32Array(size);
  const keyXor = new Uint32Array(size);
  keys.forEach((key, index) => {
    for (let i = 0; i < 3; i++) count[key[i]]++, keyXor[key[i]] ^= index;
  });
  const queue: number[] = [];
  for (let slot = 0; slot < size; slot++) if (count[slot] === 1) queue.push(slot);
  const peeled: [number, number][] = [];
  while (queue.length) {
    const slot = queue.pop()!;
    if (count[slot] !== 1) continue;
    const index = keyXor[slot];
    peeled.push([index, slot]);
    for (let i = 0; i < 3; i++) {
      const other = keys[index][i];
      count[other]--;
      keyXor[other] ^= index;
      if (count[other] === 1) queue.push(other);
    }
  }
  if (peeled.length < keys.length) return undefined;
  const slots = new Uint8Array(size);
  for (let j = peeled.length - 1; j >= 0; j--) {
    const [index, slot] = peeled[j];
    const key = keys[index];
    slots[slot] = key[3] ^ slots[key[0]] ^ slots[key[1]] ^ slots[key[2]];
  }
  return slots;
}

let decoded: Uint8Array | undefined;

function filterBits(): Uint8Array {
  if (decoded) return decoded;
  const bits = new Uint8Array(TLD_FILTER.length * 6);
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
  const [a, b, c, fingerprint] = tldFilterSlots(label, TLD_FILTER_SEED);
  let value = 0;
  for (let i = 0; i < 4; i++) value = (value << 1) | (bits[a * 4 + i] ^ bits[b * 4 + i] ^ bits[c * 4 + i]);
  return value === fingerprint;
}
