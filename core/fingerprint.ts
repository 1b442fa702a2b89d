/**
 * Call fingerprints: the identity of one exact tool call.
 *
 * @module
 */
import { sha256 } from "npm:@noble/hashes@2.4.0/sha2.js";
import { bytesToHex } from "npm:@noble/hashes@2.4.0/utils.js";
import { canonicalJson } from "./canonical_json.ts";

/**
 * The sha256 (hex) of the canonical JSON of `{tool, args}`. Any change to the
 * tool or to any argument gives a different fingerprint.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fingerprintCall } from "./fingerprint.ts";
 * const a = fingerprintCall("send_email", { to: "a@corp.example" });
 * const b = fingerprintCall("send_email", { to: "b@corp.example" });
 * assert.deepEqual(a.length, 64);
 * assert.deepEqual(a === b, false);
 * ```
 */
export function fingerprintCall(tool: string, args: unknown): string {
  return sha256Hex(canonicalJson({ tool, args }));
}

/**
 * The same fingerprint as {@linkcode fingerprintCall}, from the canonical JSON
 * of the arguments when it is already at hand (see `canonicalCopy`): the text
 * hashed is `{"args":<argsJson>,"tool":<tool as JSON>}`, which is what
 * `canonicalJson({ tool, args })` writes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fingerprintCall, fingerprintCanonical } from "./fingerprint.ts";
 * assert.equal(fingerprintCanonical("send_email", '{"to":"a@corp.example"}'), fingerprintCall("send_email", { to: "a@corp.example" }));
 * ```
 */
export function fingerprintCanonical(tool: string, argsJson: string): string {
  return sha256Hex(`{"args":${argsJson},"tool":${JSON.stringify(tool)}}`);
}

/**
 * The sha256 (hex) of a text's UTF-8 bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256Hex } from "./fingerprint.ts";
 * assert.deepEqual(sha256Hex("abc").slice(0, 8), "ba7816bf");
 * ```
 */
export function sha256Hex(text: string): string {
  // @noble/hashes, not an own sha256: for the ~100-byte texts of a call, the compression rounds are most of the cost
  // and an own implementation measured only ~1.3x faster (about 0.6 us per call), not worth a second hash to audit.
  return bytesToHex(sha256(new TextEncoder().encode(text)));
}
