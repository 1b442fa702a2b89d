/**
 * The guard: policies, decisions, rulings, recovery and child branches.
 *
 * @module
 */
export {
  type CastFunction,
  type ConfirmFunction,
  Guard,
  type GuardOptions,
  type ProposeOptions,
  type ProposeResult,
  type ProtectOptions,
  type ToolFunction,
} from "./guard.ts";
export { compilePolicy } from "./compile_policy.ts";
export { parsePolicy, type PolicyFormat } from "./parse_policy.ts";
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
  type Recipient,
  type ToolPolicy,
} from "./policy.ts";
export {
  type Decision,
  explainDecision,
  formatRecovery,
  formatStep,
  type Outcome,
  type Recovery,
  type RecoveryStep,
  type Waiver,
} from "./decision.ts";
export { type Evidence, type Gap, GAP_CODES, type GapCode, type Note, type Severity } from "./gap.ts";
export type { ApproverRule, Ruling, RulingRequest } from "./ruling.ts";
export type { Source } from "./source.ts";
export { type AnswerValue, attestAnswer } from "./answer_schema.ts";
export { isLabelled, LABELLED, type LabelledValue, withLabel } from "./labelled.ts";
export { ToolCallDenied } from "./tool_call_denied.ts";
