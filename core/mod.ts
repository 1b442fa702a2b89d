/**
 * pab's pure core: labels, trust, gradual labels, the ledger, fingerprints and errors.
 *
 * Web APIs only: no file system, network, clock or randomness.
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
export { canonicalJson } from "./canonical_json.ts";
export { fingerprintCall, sha256Hex } from "./fingerprint.ts";
export { PabError, PolicyError, type PolicyIssue, RulingError, SchemaError, TraceError } from "./errors.ts";
