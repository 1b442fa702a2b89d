/**
 * The policy sub-layer: the policy's data types, its schema, compiling and its
 * errors. Reading policy text (YAML and JSONC) is the `text/` folder's job, so
 * code that compiles policy objects ships no text parser.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compilePolicy, PolicyError } from "./mod.ts";
 * assert.throws(() => compilePolicy({ version: 2 }, "p.json"), PolicyError);
 * ```
 *
 * @module
 */
export { compilePolicy } from "./compile_policy.ts";
export { POLICY_ERROR_CODES, PolicyError, type PolicyErrorCode, type PolicyIssue } from "./policy_error.ts";
export { GAP_CODES, GAP_KINDS, type GapCode, type GapKind, isGapCode, WAIVABLE_GAP_CODES } from "./gap_kinds.ts";
export { EFFECT_TEMPLATE, effectKey } from "./effect_key.ts";
export {
  type AnswerSchema,
  type ApproverPolicy,
  type ArgRule,
  type CastPolicy,
  type Catalogue,
  type FieldSpec,
  groupOf,
  type OutputSpec,
  type Policy,
  type PolicyDefaults,
  type Recipient,
  type ToolPolicy,
  toolPolicy,
} from "./policy.ts";
