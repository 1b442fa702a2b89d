/**
 * Anchor a verified chain: to the heads its writer stored (so a cut tail in
 * a store is found) and to a signed checkpoint kept elsewhere (so a cut, an
 * emptied log, a dropped chain or a rewrite with recomputed hashes is found).
 *
 * @module
 */
import type { AuditRecord } from "./audit_record.ts";
import type { Checkpoint } from "./checkpoint.ts";
import { type AuditVerdict, broken } from "./verify_chain.ts";

/**
 * Check that every chain ends exactly at the head its writer stored, and that
 * every stored head has its chain.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linkRecord } from "./audit_record.ts";
 * import { verifyHeads } from "./verify_anchor.ts";
 * const a = linkRecord("s", undefined, { kind: "session", at: "2026-11-30T15:00:00.000Z" });
 * const b = linkRecord("s", a, { kind: "message", at: "2026-11-30T15:00:01.000Z" });
 * assert.equal(verifyHeads([a, b], new Map([["s", b]])).ok, true);
 * assert.equal(verifyHeads([a], new Map([["s", b]])).ok, false);
 * ```
 */
export function verifyHeads(
  records: readonly AuditRecord[],
  heads: ReadonlyMap<string, { readonly seq: number; readonly hash: string }>,
): AuditVerdict {
  const last = lastRecords(records);
  for (const [stream, head] of heads) {
    const record = last.get(stream);
    if (!record || record.seq !== head.seq || record.hash !== head.hash) {
      return broken(
        "ERR_AUDIT_HEAD",
        `chain "${stream}"`,
        `the chain ends ${record ? `at record ${record.seq}` : "before its first record"}, but its writer stored ` +
          `head ${head.seq} ("${head.hash}"): records were cut or rewritten`,
      );
    }
  }
  for (const stream of last.keys()) {
    if (!heads.has(stream)) {
      return broken("ERR_AUDIT_HEAD", `chain "${stream}"`, "the chain has no head stored by its writer: it was added");
    }
  }
  return { ok: true, records: records.length, streams: last.size };
}

/**
 * Check that verified records extend a checkpoint: every chain it names is
 * there, at least as long, with the checkpoint's hash at its size.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linkRecord } from "./audit_record.ts";
 * import { checkpointOf } from "./checkpoint.ts";
 * import { verifyCheckpoint } from "./verify_anchor.ts";
 * const a = linkRecord("s", undefined, { kind: "session", at: "2026-11-30T15:00:00.000Z" });
 * const b = linkRecord("s", a, { kind: "message", at: "2026-11-30T15:00:01.000Z" });
 * const checkpoint = checkpointOf([a, b]);
 * assert.equal(verifyCheckpoint([a, b], checkpoint).ok, true);
 * assert.equal(verifyCheckpoint([a], checkpoint).ok, false);
 * assert.equal(verifyCheckpoint([], checkpoint).ok, false);
 * ```
 */
export function verifyCheckpoint(records: readonly AuditRecord[], checkpoint: Checkpoint): AuditVerdict {
  const byPlace = new Map<string, AuditRecord>();
  for (const record of records) byPlace.set(`${record.seq} ${record.stream}`, record);
  const last = lastRecords(records);
  for (const head of checkpoint.heads) {
    const end = last.get(head.stream);
    if (!end || end.seq + 1 < head.size) {
      return broken(
        "ERR_AUDIT_TRUNCATED",
        `chain "${head.stream}"`,
        `the checkpoint saw ${head.size} records, the log has ${end ? end.seq + 1 : "none"}: records were removed`,
      );
    }
    if (byPlace.get(`${head.size - 1} ${head.stream}`)?.hash !== head.hash) {
      return broken(
        "ERR_AUDIT_REWRITTEN",
        `chain "${head.stream}"`,
        `record ${head.size - 1} differs from the one the checkpoint saw ("${head.hash}"): the chain was rewritten`,
      );
    }
  }
  return { ok: true, records: records.length, streams: last.size };
}

/**
 * Check that every input a store keeps for a chain's session is named by one
 * of its records (`input: SEQ`, written in the same step as the input), and
 * no record names an input the store does not have. Chains that name no
 * input at all (written before inputs were linked) are not checked, nor is
 * one whose session ended (its last record a `session` event with `ended`)
 * and whose inputs the store has dropped whole, as it does for a deleted or
 * expired session.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linkRecord } from "./audit_record.ts";
 * import { verifyInputs } from "./verify_anchor.ts";
 * const a = linkRecord("s", undefined, { kind: "message", at: "2026-11-30T15:00:00.000Z", input: 0 });
 * assert.equal(verifyInputs([a], new Map([["s", 1]])).ok, true);
 * assert.equal(verifyInputs([a], new Map([["s", 2]])).ok, false);
 * ```
 */
export function verifyInputs(records: readonly AuditRecord[], inputs: ReadonlyMap<string, number>): AuditVerdict {
  const named = new Map<string, Set<number>>();
  for (const record of records) {
    const input = record.event.input;
    if (typeof input !== "number") continue;
    const set = named.get(record.stream) ?? new Set<number>();
    set.add(input);
    named.set(record.stream, set);
  }
  const last = lastRecords(records);
  for (const [stream, set] of named) {
    const count = inputs.get(stream) ?? 0;
    if (count === 0 && last.get(stream)?.event.kind === "session" && last.get(stream)?.event.ended !== undefined) {
      continue;
    }
    for (let seq = 0; seq < Math.max(count, set.size); seq++) {
      if (set.has(seq) !== seq < count) {
        return broken(
          "ERR_AUDIT_UNRECORDED",
          `chain "${stream}"`,
          seq < count
            ? `input ${seq} of the session has no audit record: it was recorded without one, or its record was removed`
            : `a record names input ${seq}, which the session does not have: the input was removed`,
        );
      }
    }
  }
  return { ok: true, records: records.length, streams: last.size };
}

function lastRecords(records: readonly AuditRecord[]): Map<string, AuditRecord> {
  const last = new Map<string, AuditRecord>();
  for (const record of records) {
    const seen = last.get(record.stream);
    if (!seen || seen.seq < record.seq) last.set(record.stream, record);
  }
  return last;
}
