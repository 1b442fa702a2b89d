/**
 * SHA-256 (FIPS 180-4) for short inputs, hashed many times: the call
 * fingerprint is computed for every decided call.
 *
 * Why a second implementation next to `@noble/hashes` (which `sha256Hex`
 * keeps, for audit chains and arbitrary text): for a ~100-byte call, noble's
 * per-hash set-up (a hasher object, its buffer and views, wiping them, a copy
 * of the digest) costs as much as the compression itself. This one keeps its
 * state, message schedule and padding block allocated once and reads the
 * input bytes in place; `tests/sha256_test.ts` checks it against noble and
 * `crypto.subtle` on random, long and non-ASCII input and at every padding
 * boundary.
 *
 * @module
 */

/**
 * The round constants and the initial state (FIPS 180-4, 4.2.2 and 5.3.3):
 * the first 32 bits of the fractional parts of the cube roots of the first 64
 * primes, and of the square roots of the first 8. Computed rather than
 * listed: every fraction is more than 2^-40 away from a 32-bit boundary, a
 * thousand times what a `Math.cbrt` off by one unit in the last place would
 * move it, and `tests/sha256_test.ts` checks the digests.
 */
const K = new Int32Array(64);
const INITIAL = new Int32Array(8);
for (let n = 2, found = 0; found < 64; n++) {
  let prime = true;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) prime = false;
  if (!prime) continue;
  // An Int32Array stores the 32 bits (ToInt32 truncates, which for a positive value is the floor).
  K[found] = (Math.cbrt(n) % 1) * 2 ** 32;
  if (found < 8) INITIAL[found] = (Math.sqrt(n) % 1) * 2 ** 32;
  found++;
}

/** The running state, the message schedule and the last one or two blocks with their padding: allocated once. */
const STATE = new Int32Array(8);
const SCHEDULE = new Int32Array(64);
const TAIL = new Uint8Array(128);

/** The digest's hex digits as character codes, written in place and made into one string. */
const DIGITS: number[] = new Array(64).fill(0);

/**
 * The SHA-256 of some bytes, as 64 lowercase hex digits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256BytesHex } from "./sha256.ts";
 * assert.equal(
 *   sha256BytesHex(new Uint8Array([0x61, 0x62, 0x63])),
 *   "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
 * );
 * ```
 */
export function sha256BytesHex(bytes: Uint8Array): string {
  STATE.set(INITIAL);
  const length = bytes.length;
  const whole = length - (length % 64);
  for (let offset = 0; offset < whole; offset += 64) compress(bytes, offset);
  // The rest, the 0x80 marker, zeros and the length in bits (big-endian, 64 bits) fill one or two more blocks.
  const rest = length - whole;
  const tail = rest < 56 ? 64 : 128;
  for (let i = 0; i < rest; i++) TAIL[i] = bytes[whole + i];
  TAIL[rest] = 0x80;
  const high = Math.floor(length / 0x20000000);
  const low = (length * 8) >>> 0;
  // A Uint8Array keeps the low 8 bits of each shift.
  for (let i = 0; i < 8; i++) TAIL[tail - 8 + i] = (i < 4 ? high : low) >>> (24 - 8 * (i & 3));
  compress(TAIL, 0);
  if (tail === 128) compress(TAIL, 64);
  // Nothing of the input stays behind in module memory (the padding area must be zero for the next hash anyway).
  TAIL.fill(0);
  SCHEDULE.fill(0);
  // One string from the 64 digits: concatenating them made some 30 short strings per hash.
  for (let i = 0; i < 64; i++) DIGITS[i] = "0123456789abcdef".charCodeAt((STATE[i >> 3] >>> (28 - 4 * (i & 7))) & 15);
  return String.fromCharCode(...DIGITS);
}

function compress(bytes: Uint8Array, offset: number): void {
  const w = SCHEDULE;
  for (let i = 0; i < 16; i++) {
    const at = offset + i * 4;
    w[i] = (bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
  }
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15];
    const y = w[i - 2];
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let a = STATE[0], b = STATE[1], c = STATE[2], d = STATE[3];
  let e = STATE[4], f = STATE[5], g = STATE[6], h = STATE[7];
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  STATE[0] = (STATE[0] + a) | 0;
  STATE[1] = (STATE[1] + b) | 0;
  STATE[2] = (STATE[2] + c) | 0;
  STATE[3] = (STATE[3] + d) | 0;
  STATE[4] = (STATE[4] + e) | 0;
  STATE[5] = (STATE[5] + f) | 0;
  STATE[6] = (STATE[6] + g) | 0;
  STATE[7] = (STATE[7] + h) | 0;
}
