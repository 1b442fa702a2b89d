/**
 * pab's pure core: labels, trust, gradual labels, the ledger and its effect
 * store, fingerprints and the base error.
 *
 * Web APIs only: no file system, network, clock or randomness.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatLabel, makeLabel, meet } from "./mod.ts";
 * const label = meet(makeLabel(["hr", "staff"], "trusted"), makeLabel(["staff"], "suspicious"));
 * assert.equal(formatLabel(label), "<staff | suspicious>");
 * ```
 *
 * @module
 */
export { isTrust, lowerTrust, type Trust, TRUST_LEVELS, trustRank } from "./trust.ts";
export { atMost, formatLabel, type Label, labelsEqual, makeLabel, meet } from "./label.ts";
export {
  type Cast,
  formatPartialLabel,
  knownLabel,
  meetPartial,
  type PartialLabel,
  settle,
  type SettleFailure,
  type SettleResult,
} from "./partial_label.ts";
export { Ledger, type LedgerEvent, type LedgerEventKind } from "./ledger.ts";
export { type EffectStore, MemoryEffectStore } from "./effect_store.ts";
export { canonicalJson } from "./canonical_json.ts";
export { type CanonicalCopy, canonicalCopy, COPY_DEPTH_LIMIT, COPY_LENGTH_LIMIT } from "./canonical_copy.ts";
export { closestWord } from "./closest_word.ts";
export { fingerprintCall, fingerprintCanonical, sha256Hex } from "./fingerprint.ts";
export { PabError } from "./errors.ts";
export { errorText } from "./error_text.ts";
export { isRecord } from "./is_record.ts";
