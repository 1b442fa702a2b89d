/**
 * Audit records: each event of a session's timeline, chained to the one
 * before it by the sha256 of its canonical JSON.
 *
 * @module
 */
import { canonicalJson } from "../../core/mod.ts";
import { auditHash } from "./_audit_hash.ts";
import { canonicalText } from "./_canonical_text.ts";
import { parseJson } from "../json/mod.ts";
import { jsonAround, type WrittenString } from "./json_around.ts";

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
  // Kept as its canonical JSON reads back, so a stored copy hashes the same.
  return parseJson(linkText(stream, head, event).text) as AuditRecord;
}

/** A record as a store keeps it: its position, its hash and its JSON text. */
export interface LinkedText {
  /** Position in the chain. */
  readonly seq: number;
  /** Its hash (the next record's `prev`). */
  readonly hash: string;
  /**
   * The record's JSON, `{"stream","seq","prev","event","hash"}` in that order with the event in canonical JSON:
   * what `JSON.stringify(linkRecord(...))` writes, and it parses to the record.
   */
  readonly text: string;
}

/**
 * The record that follows `head`, as the text a store keeps: the same record
 * as {@linkcode linkRecord}, with the event's canonical text hashed within
 * the record's and written as is (the record is not serialised again).
 * `written` is a string of the event (the value of one of its keys) whose
 * JSON the caller wrote already, as `JSON.stringify` writes it: the record is
 * written around that JSON (the caller vouches that it is that string's).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linkRecord, linkText } from "./audit_record.ts";
 * const event = { kind: "message" as const, at: "2026-11-30T15:00:01.000Z", text: "hi" };
 * const linked = linkText("s_1", undefined, event);
 * assert.deepEqual(JSON.parse(linked.text), linkRecord("s_1", undefined, event));
 * assert.equal(linked.text, JSON.stringify(linkRecord("s_1", undefined, event)));
 * ```
 */
export function linkText(
  stream: string,
  head: Pick<AuditRecord, "seq" | "hash"> | undefined,
  event: AuditEvent,
  written?: WrittenString,
): LinkedText {
  const seq = head ? head.seq + 1 : 0;
  const prev = head ? head.hash : GENESIS;
  // A long string of the event the caller wrote as JSON already (a tool's output its input holds too) is not escaped
  // again: the event's canonical JSON is written around it.
  const around = written && jsonAround(event, written, canonicalText);
  const eventJson = around ? around.before + written!.json + around.after : canonicalText(event);
  if (typeof stream !== "string" || typeof prev !== "string" || eventJson === undefined) {
    // Not a record JSON can hold as given (the types rule these out): the definition's own steps, its errors included.
    const plain = parseJson(eventJson as string);
    const hash = auditHash(canonicalUnhashed({ stream, seq, prev, event: plain as AuditEvent }));
    return { seq, hash, text: JSON.stringify({ stream, seq, prev, event: plain, hash }) };
  }
  // The event's canonical text is a fixed point (the canonical JSON of what it reads back as is the same text, and
  // JSON.stringify of what it reads back as is that text too), so it is hashed and written as is: the record the
  // definition, JSON.stringify of {stream, seq, prev, event: the read-back, hash}, writes. Pinned by
  // tests/audit_text_properties_test.ts against a faithful reader: V8's JSON.parse can misread an escaped key (V8 issue
  // 521080746, nodejs/node#63785), and the record keeps the event as given, not as misread.
  // A string's canonical JSON is its JSON, and so is a finite number's: each is written once, for both texts.
  const streamJson = JSON.stringify(stream);
  const prevJson = JSON.stringify(prev);
  const seqJson = JSON.stringify(seq);
  const seqCanonical = Number.isFinite(seq) ? seqJson : canonicalJson(seq);
  // The hashed text in pieces (no joined copy of the output): the event's JSON alone, or around the written string.
  const after = unhashedAfter(prevJson, seqCanonical, streamJson);
  const hash = around
    ? auditHash(`{"event":${around.before}`, written!.json, around.after + after)
    : auditHash(`{"event":`, eventJson, after);
  const text = `{"stream":${streamJson},"seq":${seqJson},"prev":${prevJson},"event":${eventJson},"hash":"${hash}"}`;
  return { seq, hash, text };
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
  return auditHash(canonicalUnhashed(record));
}

/** The canonical JSON of a record's `{stream, seq, prev, event}`: the text its hash covers. */
function canonicalUnhashed(record: Omit<AuditRecord, "hash">): string {
  const { stream, seq, prev, event } = record;
  const eventJson = canonicalJson(event);
  return `{"event":${eventJson}${unhashedAfter(canonicalJson(prev), canonicalJson(seq), canonicalJson(stream))}`;
}

/**
 * What follows the event in the canonical JSON of `{stream, seq, prev, event}` (keys sorted: event, prev, seq,
 * stream), from each one's canonical JSON: the hashed text is written around the event's, without walking it again.
 */
function unhashedAfter(prevJson: string, seqJson: string, streamJson: string): string {
  return `,"prev":${prevJson},"seq":${seqJson},"stream":${streamJson}}`;
}
