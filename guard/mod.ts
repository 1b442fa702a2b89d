/**
 * The guard: policies, decisions, rulings, recovery, child branches and
 * dispatch. This door is for adapters; users start from the root `mod.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compilePolicy, Guard } from "./mod.ts";
 * const guard = new Guard(compilePolicy({ version: 1, tools: { send_email: { args: { to: { require: "trusted" } } } } }));
 * guard.user("Write to alice@corp.example");
 * assert.equal(guard.decide("send_email", { to: "alice@corp.example" }).outcome, "allow");
 * assert.equal(guard.decide("send_email", { to: "eve@attacker.example" }).outcome, "block");
 * ```
 *
 * @module
 */
export { Guard } from "./guard.ts";
export type {
  CastFunction,
  CompleteResult,
  ConfirmFunction,
  GuardOptions,
  ProposeOptions,
  ProposeResult,
  ProtectOptions,
  Reservation,
  ReserveResult,
  ToolFunction,
} from "./guard_options.ts";
export {
  type AnswerSchema,
  type ApproverPolicy,
  type ArgRule,
  type CastPolicy,
  type Catalogue,
  compilePolicy,
  EFFECT_TEMPLATE,
  effectKey,
  type FieldSpec,
  GAP_CODES,
  GAP_KINDS,
  type GapCode,
  type GapKind,
  groupOf,
  isGapCode,
  type OutputSpec,
  type Policy,
  type PolicyDefaults,
  PolicyError,
  type PolicyErrorCode,
  type PolicyIssue,
  type Recipient,
  type ToolPolicy,
  toolPolicy,
  WAIVABLE_GAP_CODES,
} from "./policy/mod.ts";
export { makeToolCall, type ToolCall } from "./tool_call.ts";
export { incomingLabel, judge, type Judgement, type JudgeState } from "./judge.ts";
export { type AppliedRule, appliedRules, isDestinationName, isOutward } from "./outward.ts";
export { type DesignationOptions, escalate, type Escalation, isDesignated, isSelectorName } from "./designation.ts";
export { isRecordField, onlyRecorded } from "./recorded_value.ts";
export { askBeforeOpening } from "./link_only.ts";
export { askAboutCodeLikeNames, isCodeLikeName } from "./code_like_name.ts";
export { fillTemplate, type PlanContext, type PlannerApprover, planRecovery } from "./plan_recovery.ts";
export {
  type Decision,
  makeDecision,
  type Outcome,
  type Recovery,
  type RecoveryStep,
  type Waiver,
} from "./decision.ts";
export { explainDecision, formatRecovery, formatStep } from "./explain_decision.ts";
export { type Evidence, type Gap, gapKey, type Note, type NoteCode, type Severity } from "./gap.ts";
export type { ApproverRule, Ruling, RulingRequest } from "./ruling.ts";
export { RulingBook } from "./ruling_book.ts";
export { type ConfirmingGuard, SHOWN_DECISIONS_KEPT, ShownDecisions } from "./shown_decisions.ts";
export { Branch, type BranchInit, type SourceEntry } from "./branch.ts";
export type { Source } from "./source.ts";
export type { DelegatedQuantities, Quantity, StatedChanges } from "./judge_state.ts";
export { type AnswerValue, attestAnswer } from "./answer_schema.ts";
export { checkLabel, isLabelled, LABELLED, type LabelledValue, withLabel } from "./labelled.ts";
export { type Leaf, LEAF_DEPTH_LIMIT, readLeaves } from "./read_leaves.ts";
export { type EffectPlan, planEffects } from "./effect_plan.ts";
export type { RecordOptions } from "./record_output.ts";
export { ToolCallDenied } from "./tool_call_denied.ts";
export {
  BranchClosedError,
  GUARD_ERROR_CODES,
  type GuardErrorCode,
  LabelError,
  ReservationError,
  RulingError,
  SchemaError,
  UnknownSchemaError,
} from "./guard_errors.ts";
