/**
 * A session's credential: a secret token returned once when the session is
 * made and required on every later call. The store keeps only its SHA-256
 * digest, and a token is compared by digest in constant time; once a token
 * matched, the record it matched remembers it in this process, and the
 * session's later calls compare their token with it, also in constant time.
 * Knowing a session's id gives nothing: the id is a name, the token is the key.
 *
 * @module
 */
import type { SessionRecord } from "../store/mod.ts";
import { RequestError } from "./request_error.ts";
import { textDigest } from "./text_digest.ts";

/** The request header that carries a session's token. */
export const SESSION_TOKEN_HEADER = "pab-session-token";

/** A stored session with the digest of its credential (sessions made outside the API have none). */
export interface CredentialedSession extends SessionRecord {
  /** SHA-256 (hex) of the session's token. */
  readonly credential?: string;
}

/**
 * A fresh token (32 random bytes, base64url) and the digest to store.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mintCredential } from "./session_credential.ts";
 * const { token, digest } = mintCredential();
 * assert.match(token, /^pst_[A-Za-z0-9_-]{43}$/);
 * assert.match(digest, /^[0-9a-f]{64}$/);
 * ```
 */
export function mintCredential(): { token: string; digest: string } {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const token = `pst_${btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
  return { token, digest: textDigest(token) };
}

/** The token that matched each session record, with the digest it matched (kept while the record is). */
const VERIFIED = new WeakMap<CredentialedSession, { readonly token: string; readonly digest: string }>();

/**
 * Throw unless `token` is the credential of `record` (403
 * `ERR_SESSION_CREDENTIAL`): a missing or wrong token, or a session made
 * outside the API (which has no credential), is refused alike.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkCredential, mintCredential } from "./session_credential.ts";
 * const { token, digest } = mintCredential();
 * const record = { id: "s_1", ledger: "s_1", created: "", credential: digest };
 * checkCredential(record, token);
 * assert.throws(() => checkCredential(record, token.slice(0, -1) + "x"), { code: "ERR_SESSION_CREDENTIAL" });
 * assert.throws(() => checkCredential(record, null), { code: "ERR_SESSION_CREDENTIAL" });
 * ```
 */
export function checkCredential(record: CredentialedSession, token: string | null): void {
  // The token that matched this record's digest before, compared whole in time that depends only on the lengths:
  // the session's next calls skip hashing. Only a token that matched is kept; any other is hashed and compared.
  const expected = typeof record.credential === "string" ? record.credential : "";
  const verified = VERIFIED.get(record);
  if (verified?.digest === expected && token !== null && sameText(token, verified.token)) return;
  // Always hash and compare the full length, whatever was sent.
  const given = textDigest(token ?? "");
  if (!sameText(given, expected) || expected.length !== 64 || token === null) {
    throw new RequestError(
      "ERR_SESSION_CREDENTIAL",
      `Cannot use session "${record.id}": send the token it was made with in the "${SESSION_TOKEN_HEADER}" header`,
    );
  }
  VERIFIED.set(record, { token, digest: expected });
}

/**
 * Whether two strings are equal, in time that depends only on their lengths.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sameText } from "./session_credential.ts";
 * assert.equal(sameText("abc", "abc"), true);
 * assert.equal(sameText("abc", "abd"), false);
 * ```
 */
export function sameText(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) difference |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return difference === 0;
}
