/**
 * Audit records: each event of a session's timeline, chained to the one
 * before it by the sha256 of its canonical JSON.
 *
 * @module
 */
import { canonicalJson, sha256Hex } from "../../core/mod.ts";

/** What an audit event is about. */
export type AuditKind =
  | "session"
  | "message"
  | "result"
  | "decision"
  | "ruling"
  | "reservation"
  | "effect"
  | "release"
  /** An event of the guard's ledger (`GuardOptions.onEvent`): dispatch, blocked, ruling minted or spent, reserved, committed, released, tool failed, note. */
  | "ledger";

/** One event as pab writes it: plain JSON. */
export interface AuditEvent {
  /** What happened. */
  readonly kind: AuditKind;
  /** When it was written (ISO 8601). */
  readonly at: string;
  /** Details: the decision, the ruling, the reserved effects. */
  readonly [detail: string]: unknown;
}

/** One link of the chain. */
export interface AuditRecord {
  /** The chain (a session id) this record belongs to. */
  readonly stream: string;
  /** Position in the chain, from 0. */
  readonly seq: number;
  /** The hash of the record before it ({@linkcode GENESIS} for the first). */
  readonly prev: string;
  /** The event. */
  readonly event: AuditEvent;
  /** sha256 (hex) of the canonical JSON of `{stream, seq, prev, event}`. */
  readonly hash: string;
}

/** The `prev` of the first record of every chain. */
export const GENESIS: string = "0".repeat(64);

/**
 * The record that follows `head` (or starts the chain when `head` is undefined).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { GENESIS, linkRecord } from "./audit_record.ts";
 * const first = linkRecord("s_1", undefined, { kind: "session", at: "2026-11-30T15:00:00.000Z" });
 * const second = linkRecord("s_1", first, { kind: "message", at: "2026-11-30T15:00:01.000Z", role: "user" });
 * assert.equal(first.prev, GENESIS);
 * assert.equal(second.prev, first.hash);
 * assert.equal(second.seq, 1);
 * ```
 */
export function linkRecord(
  stream: string,
  head: Pick<AuditRecord, "seq" | "hash"> | undefined,
  event: AuditEvent,
): AuditRecord {
  const seq = head ? head.seq + 1 : 0;
  const prev = head ? head.hash : GENESIS;
  // Kept as its canonical JSON reads back, so a stored copy hashes the same.
  const plain = JSON.parse(canonicalJson(event)) as AuditEvent;
  return { stream, seq, prev, event: plain, hash: hashRecord({ stream, seq, prev, event: plain }) };
}

/**
 * The hash a record must carry: sha256 of the canonical JSON of its other fields.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { GENESIS, hashRecord } from "./audit_record.ts";
 * const event = { kind: "session" as const, at: "2026-11-30T15:00:00.000Z" };
 * assert.equal(hashRecord({ stream: "s", seq: 0, prev: GENESIS, event }).length, 64);
 * ```
 */
export function hashRecord(record: Omit<AuditRecord, "hash">): string {
  return sha256Hex(canonicalJson({ stream: record.stream, seq: record.seq, prev: record.prev, event: record.event }));
}
