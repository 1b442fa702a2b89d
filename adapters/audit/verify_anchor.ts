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
import { unrecordedBy } from "./_recorded_input.ts";

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
 * of its records (`input: SEQ`, written in the same step as the input) that
 * records it as it is stored (the same message, the same tool's output and
 * arguments, the same ruling), and no record names an input the store does
 * not have. `inputs` holds the inputs of every session the store keeps: a
 * session that holds inputs and has no chain at all fails (its records were
 * removed, head and all). Chains that name no input at all (written before
 * inputs were linked) are not checked further, nor is one whose session
 * ended (its last record a `session` event with `ended`) and whose inputs
 * the store has dropped whole, as it does for a deleted or expired session.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linkRecord } from "./audit_record.ts";
 * import { verifyInputs } from "./verify_anchor.ts";
 * const a = linkRecord("s", undefined, { kind: "message", at: "2026-11-30T15:00:00.000Z", role: "user", text: "hi", input: 0 });
 * const hi = { kind: "user", text: "hi" };
 * assert.equal(verifyInputs([a], new Map([["s", [hi]]])).ok, true);
 * assert.equal(verifyInputs([a], new Map([["s", [hi, hi]]])).ok, false);
 * assert.equal(verifyInputs([a], new Map([["s", [{ kind: "system", text: "hi" }]]])).ok, false);
 * assert.equal(verifyInputs([], new Map([["s", [hi]]])).ok, false);
 * ```
 */
export function verifyInputs(
  records: readonly AuditRecord[],
  inputs: ReadonlyMap<string, readonly unknown[]>,
): AuditVerdict {
  // Each input's step: the records after the one that named the input before it, up to the one that names it.
  const named = new Map<string, Map<number, AuditRecord[]>>();
  const steps = new Map<string, AuditRecord[]>();
  for (const record of records) {
    const step = steps.get(record.stream) ?? [];
    step.push(record);
    steps.set(record.stream, step);
    const input = record.event.input;
    if (typeof input !== "number") continue;
    const byInput = named.get(record.stream) ?? new Map<number, AuditRecord[]>();
    byInput.set(input, step);
    named.set(record.stream, byInput);
    steps.set(record.stream, []);
  }
  const chains = lastRecords(records);
  for (const [stream, { length: count }] of inputs) {
    if (count > 0 && !chains.has(stream)) {
      return broken(
        "ERR_AUDIT_UNRECORDED",
        `chain "${stream}"`,
        `the session holds ${count} input${count === 1 ? "" : "s"} and has no audit chain: its records were removed`,
      );
    }
  }
  for (const [stream, byInput] of named) {
    const stored = inputs.get(stream) ?? [];
    const last = chains.get(stream)?.event;
    if (!stored.length && last?.kind === "session" && last.ended !== undefined) continue;
    for (let seq = 0; seq < stored.length; seq++) {
      const step = byInput.get(seq);
      const record = step?.at(-1);
      const why = step ? unrecordedBy(step.map((one) => one.event), stored[seq]) : undefined;
      if (!record || why) {
        return broken(
          "ERR_AUDIT_UNRECORDED",
          `chain "${stream}"`,
          record
            ? `input ${seq} of the session is not what its audit record ${record.seq} recorded (${why}): it was ` +
              `changed after it was recorded`
            : `input ${seq} of the session has no audit record: it was recorded without one, or its record was removed`,
        );
      }
    }
    for (const seq of byInput.keys()) {
      if (seq >= stored.length) {
        return broken(
          "ERR_AUDIT_UNRECORDED",
          `chain "${stream}"`,
          `a record names input ${seq}, which the session does not have: the input was removed`,
        );
      }
    }
  }
  return { ok: true, records: records.length, streams: chains.size };
}

function lastRecords(records: readonly AuditRecord[]): Map<string, AuditRecord> {
  const last = new Map<string, AuditRecord>();
  for (const record of records) {
    const seen = last.get(record.stream);
    if (!seen || seen.seq < record.seq) last.set(record.stream, record);
  }
  return last;
}
