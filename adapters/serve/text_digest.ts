/**
 * The SHA-256 of a short text, as `pab serve` compares them on every request
 * (session tokens, the `shown` digest of a decision).
 *
 * @module
 */
import { createHash } from "node:crypto";

/**
 * The sha256 (hex) of a text's UTF-8 bytes: the digest `sha256Hex` of
 * `core/` gives, from the runtime's native hash (`node:crypto`, in Deno and
 * Node alike), which for a token or a decision's digest text costs half of
 * the pure-JavaScript one. Lone surrogates are encoded as U+FFFD by both, as
 * `TextEncoder` does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256Hex } from "../../core/mod.ts";
 * import { textDigest } from "./text_digest.ts";
 * assert.equal(textDigest("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
 * assert.equal(textDigest("a\ud800b"), sha256Hex("a\ud800b"));
 * ```
 */
export function textDigest(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
