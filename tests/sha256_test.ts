/**
 * The fingerprint's own SHA-256 (core/sha256.ts) against @noble/hashes and Web Crypto: random bytes, every length
 * around the padding boundaries, long input, and the UTF-8 of non-ASCII and lone-surrogate text.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { sha256BytesHex } from "../core/sha256.ts";
import { fingerprintCall, sha256Hex } from "../core/mod.ts";

async function subtleHex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

Deno.test("sha256BytesHex() gives the FIPS 180-4 test vectors", () => {
  const hex = (text: string) => sha256BytesHex(new TextEncoder().encode(text));
  assert.equal(hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(
    hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
  assert.equal(hex("a".repeat(1_000_000)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
});

Deno.test("sha256BytesHex() equals @noble/hashes and crypto.subtle at every length around the padding boundaries", async () => {
  const bytes = new Uint8Array(300).map((_, i) => (i * 131 + 7) & 255);
  for (let length = 0; length <= 300; length++) {
    const input = bytes.subarray(0, length);
    const expected = bytesToHex(sha256(input));
    assert.equal(sha256BytesHex(input), expected, `length ${length}`);
    if (length % 64 === 55 || length % 64 === 56 || length % 64 === 0) assert.equal(await subtleHex(input), expected);
  }
});

Deno.test("sha256BytesHex() equals @noble/hashes and crypto.subtle on random and long input", async () => {
  await fc.assert(
    fc.asyncProperty(fc.uint8Array({ maxLength: 5000 }), async (input) => {
      const expected = bytesToHex(sha256(input));
      assert.equal(sha256BytesHex(input), expected);
      assert.equal(await subtleHex(input), expected);
    }),
    { numRuns: 300 },
  );
  const long = new Uint8Array(3_000_017).map((_, i) => (i ^ (i >>> 8)) & 255);
  assert.equal(sha256BytesHex(long), bytesToHex(sha256(long)));
  // A hash reused after a long one starts clean: no state leaks from one input to the next.
  assert.equal(
    sha256BytesHex(new Uint8Array([0x61, 0x62, 0x63])),
    bytesToHex(sha256(new Uint8Array([0x61, 0x62, 0x63]))),
  );
});

Deno.test("fingerprintCall() hashes the UTF-8 of any text, non-ASCII and lone surrogates included, as sha256Hex does", () => {
  fc.assert(
    fc.property(
      fc.string({ unit: "binary", maxLength: 200 }),
      fc.string({ unit: "grapheme", maxLength: 50 }),
      (a, b) => {
        const args = { a, b, "é\u{1F600}": [a] };
        const text = `{"args":${JSON.stringify({ a, b, "é\u{1F600}": [a] })},"tool":"t"}`;
        assert.equal(fingerprintCall("t", args), sha256Hex(text));
      },
    ),
    { numRuns: 500 },
  );
});
