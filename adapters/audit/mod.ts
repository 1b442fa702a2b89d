/**
 * A tamper-evident audit log: every decision, ruling, reservation and effect
 * is an event that carries the sha256 of the one before it, so a change to
 * any byte of the log breaks the chain at the first record changed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linkRecord, toJsonl, verifyJsonl } from "./mod.ts";
 * const first = linkRecord("s_1", undefined, { kind: "session", at: "2026-11-30T15:00:00.000Z" });
 * const text = toJsonl([first, linkRecord("s_1", first, { kind: "message", at: "2026-11-30T15:00:01.000Z" })]);
 * assert.equal(verifyJsonl(text).ok, true);
 * ```
 *
 * @module
 */
export { type AuditEvent, type AuditKind, type AuditRecord, GENESIS, hashRecord, linkRecord } from "./audit_record.ts";
export {
  type AuditProblem,
  type AuditProblemCode,
  type AuditVerdict,
  toJsonl,
  verifyJsonl,
  verifyRecords,
} from "./verify_chain.ts";
export { escapeControl, formatTimeline } from "./format_timeline.ts";
