/**
 * Weak evidence: values so short or so common that finding them in a trusted
 * source says little about where the model took them from (ProvGuard's
 * advice). They still pass; the decision carries a note.
 *
 * @module
 */
import { canonicalEntity } from "./entities.ts";
import { normalizeText } from "./normalize.ts";
import { ownCopy } from "./own_copy.ts";

/** Words any source may contain by chance. */
const COMMON = new Set(
  ("yes no ok okay true false none null nil n/a na all any some me you us them it this that today tomorrow " +
    "yesterday now later daily weekly monthly yearly high low medium default other unknown test hello hi " +
    "thanks please done new old open closed draft sent inbox archive").split(" "),
);

/**
 * Why a value is weak evidence, or `undefined` when it is not: at most two
 * characters; a number below 1000 (amounts included); a common word; or a
 * single plain word of at most eight letters (such as a first name).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { weakEvidence } from "./weak_evidence.ts";
 * assert.equal(weakEvidence("yes"), "a common word");
 * assert.equal(weakEvidence("Alice"), "a single short word");
 * assert.equal(weakEvidence("$12.50"), "a number below 1000");
 * assert.equal(weakEvidence("alice@corp.example"), undefined);
 * ```
 */
export function weakEvidence(value: string): string | undefined {
  // Agents pass the same values again and again (a recipient, an account): remember the last answers.
  if (value.length > REMEMBERED_LENGTH) return readWeakness(value);
  const known = REMEMBERED.get(value);
  if (known !== undefined) return known ?? undefined;
  const weakness = readWeakness(value);
  if (REMEMBERED.size >= REMEMBERED_COUNT) REMEMBERED.clear();
  REMEMBERED.set(ownCopy(value), weakness ?? null);
  return weakness;
}

/** Values up to this many characters have their answer remembered; at most REMEMBERED_COUNT of them. */
const REMEMBERED_LENGTH = 256;
const REMEMBERED_COUNT = 256;
const REMEMBERED = new Map<string, string | null>();

function readWeakness(value: string): string | undefined {
  const folded = normalizeText(value).trim();
  if (folded.replace(/\s+/g, "").length <= 2) return "at most two characters";
  const entity = canonicalEntity(value);
  if (entity?.type === "number" || entity?.type === "amount") {
    const number = Number(entity.canonical.slice(entity.canonical.lastIndexOf(" ") + 1));
    return Math.abs(number) < 1000 ? "a number below 1000" : undefined;
  }
  if (entity) return undefined;
  if (COMMON.has(folded)) return "a common word";
  if (/^[\p{L}\p{M}]{1,8}$/u.test(folded)) return "a single short word";
  return undefined;
}
