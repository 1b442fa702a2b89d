/**
 * A tamper-evident audit log: every decision, ruling, reservation and effect
 * is an event that carries the sha256 of the one before it, so a change to
 * any byte of the log breaks the chain at the first record changed; signed
 * checkpoints (Ed25519, a key the operator owns) anchor the chains, so cutting,
 * emptying, dropping or rewriting them is found too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkpointOf, linkRecord, toJsonl, verifyCheckpoint, verifyJsonl } from "./mod.ts";
 * const first = linkRecord("s_1", undefined, { kind: "session", at: "2026-11-30T15:00:00.000Z" });
 * const records = [first, linkRecord("s_1", first, { kind: "message", at: "2026-11-30T15:00:01.000Z" })];
 * assert.equal(verifyJsonl(toJsonl(records)).ok, true);
 * assert.equal(verifyCheckpoint(records.slice(0, 1), checkpointOf(records)).ok, false);
 * ```
 *
 * @module
 */
export {
  type AuditEvent,
  type AuditKind,
  type AuditRecord,
  GENESIS,
  hashRecord,
  type LinkedText,
  linkRecord,
  linkText,
} from "./audit_record.ts";
export {
  AUDIT_PROBLEM_CODES,
  type AuditProblem,
  type AuditProblemCode,
  type AuditVerdict,
  toJsonl,
  verifyJsonl,
  verifyRecords,
} from "./verify_chain.ts";
export {
  type AuditKeyFile,
  type ChainHead,
  type Checkpoint,
  checkpointOf,
  generateAuditKey,
  openCheckpoint,
  publicAuditKey,
  signCheckpoint,
} from "./checkpoint.ts";
export { verifyCheckpoint, verifyHeads, verifyInputs } from "./verify_anchor.ts";
export { jsonAround, type WrittenString } from "./json_around.ts";
export { escapeControl, formatTimeline } from "./format_timeline.ts";
