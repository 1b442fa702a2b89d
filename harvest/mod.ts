/**
 * Harvesting evidence: normalising text, reading typed values out of it, and
 * finding which sources contain a value.
 *
 * Pure: Web APIs only.
 *
 * @module
 */
export { isWeakValue, normalizeText, tokenize } from "./normalize.ts";
export { type LeafValue, leafValues } from "./leaf_values.ts";
export { type StructuredLeaf, structuredLeaves } from "./structured_leaves.ts";
export { findEmbeddedValues } from "./embedded_values.ts";
export { EvidenceIndex, type EvidenceMatch, type MatchKind, MAX_RANK, type Vouch } from "./evidence_index.ts";
export { canonicalEntity, type Entity, type EntityType, extractEntities } from "./entities.ts";
export { isTopLevelDomain, writeTldFilter } from "./top_level_domains.ts";
export { COMMON_TLDS } from "./code_names.ts";
export { compileFieldPatterns, matchesFieldPattern } from "./field_pattern.ts";
export { weakEvidence } from "./weak_evidence.ts";
export { isAddressList, parseAddressList } from "./address_list.ts";
