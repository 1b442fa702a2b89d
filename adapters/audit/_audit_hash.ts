import { createHash } from "node:crypto";

/**
 * The sha256 (hex) of the UTF-8 bytes of `texts` joined, for audit records: the same digest as `sha256Hex` of `core/`,
 * from the runtime's native hash (`node:crypto`, in Deno and Node alike). A step's records hold its tool output (3 KB
 * or more), and the pure-JavaScript hash of them took about a fifth of a served step; the native one takes a tenth of
 * that. Lone surrogates are encoded as U+FFFD by both, as `TextEncoder` does; `tests/audit_hash_test.ts` checks them
 * equal. The texts are hashed one after the other, not joined first: a joined text is written out whole (a copy of a
 * 3 KB output) before the runtime reads it.
 */
export function auditHash(...texts: string[]): string {
  // Well-formed texts join into a well-formed text (none ends in half a pair, none starts with one), whose UTF-8 is
  // theirs one after the other; a lone surrogate is encoded in the joined text, as a pair split between two texts is.
  // The runtime's own encoding of a text with a lone surrogate took 20 times as long.
  if (!texts.every((text) => text.isWellFormed())) return auditHash(texts.join("").toWellFormed());
  const hash = createHash("sha256");
  for (const text of texts) hash.update(text, "utf8");
  return hash.digest("hex");
}
