/**
 * Call fingerprints: the identity of one exact tool call.
 *
 * @module
 */
import { sha256 } from "npm:@noble/hashes@2.4.0/sha2.js";
import { bytesToHex } from "npm:@noble/hashes@2.4.0/utils.js";
import { canonicalJson } from "./canonical_json.ts";
import { sha256BytesHex } from "./sha256.ts";

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
  return fingerprintText(canonicalJson({ tool, args }));
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
  return fingerprintText(`{"args":${argsJson},"tool":${JSON.stringify(tool)}}`);
}

let encoder: TextEncoder | undefined;

/**
 * The fingerprint of a call's canonical text: its UTF-8 bytes hashed with the preallocated SHA-256 of `sha256.ts`,
 * made for the many short texts of calls. The encoder is made on first use: an engine without `TextEncoder` still
 * loads pab, and every call is blocked with a `guard-error` that names it.
 */
function fingerprintText(text: string): string {
  encoder ??= new TextEncoder();
  return sha256BytesHex(encoder.encode(text));
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
  // @noble/hashes, an audited implementation, for audit chains and any text; fingerprints use sha256.ts (see there).
  return bytesToHex(sha256(new TextEncoder().encode(text)));
}
