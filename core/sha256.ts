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

const K = new Int32Array([
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
]);

const INITIAL = new Int32Array([
  0x6a09e667,
  0xbb67ae85,
  0x3c6ef372,
  0xa54ff53a,
  0x510e527f,
  0x9b05688c,
  0x1f83d9ab,
  0x5be0cd19,
]);

/** The running state, the message schedule and the last one or two blocks with their padding: allocated once. */
const STATE = new Int32Array(8);
const SCHEDULE = new Int32Array(64);
const TAIL = new Uint8Array(128);

const HEX: readonly string[] = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

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
  TAIL[tail - 8] = high >>> 24;
  TAIL[tail - 7] = high >>> 16;
  TAIL[tail - 6] = high >>> 8;
  TAIL[tail - 5] = high;
  TAIL[tail - 4] = low >>> 24;
  TAIL[tail - 3] = low >>> 16;
  TAIL[tail - 2] = low >>> 8;
  TAIL[tail - 1] = low;
  compress(TAIL, 0);
  if (tail === 128) compress(TAIL, 64);
  // Nothing of the input stays behind in module memory (the padding area must be zero for the next hash anyway).
  TAIL.fill(0);
  SCHEDULE.fill(0);
  let hex = "";
  for (let i = 0; i < 8; i++) {
    const word = STATE[i];
    hex += HEX[(word >>> 24) & 255] + HEX[(word >>> 16) & 255] + HEX[(word >>> 8) & 255] + HEX[word & 255];
  }
  return hex;
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
