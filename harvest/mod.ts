/**
 * Harvesting evidence: normalising text and finding which sources contain a value.
 *
 * Pure: Web APIs only.
 *
 * @module
 */
export { isWeakValue, normalizeText, tokenize } from "./normalize.ts";
export { type LeafValue, leafValues } from "./leaf_values.ts";
export { findEmbeddedValues } from "./embedded_values.ts";
export { EvidenceIndex, type EvidenceMatch, type MatchKind } from "./evidence_index.ts";
export { isAddressList, parseAddressList } from "./address_list.ts";
