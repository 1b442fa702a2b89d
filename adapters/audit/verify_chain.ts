/**
 * Check audit chains: every record hashes to what it carries, and every
 * record names the hash of the one before it.
 *
 * @module
 */
import { canonicalJson } from "../../core/mod.ts";
import { type AuditRecord, GENESIS, hashRecord } from "./audit_record.ts";
import { parseJson } from "../json/mod.ts";

/** Every code of a chain that does not verify (a closed list; see {@linkcode AuditProblem}). */
export const AUDIT_PROBLEM_CODES = [
  "ERR_AUDIT_PARSE",
  "ERR_AUDIT_HASH",
  "ERR_AUDIT_LINK",
  "ERR_AUDIT_HEAD",
  "ERR_AUDIT_UNRECORDED",
  "ERR_AUDIT_TRUNCATED",
  "ERR_AUDIT_REWRITTEN",
  "ERR_AUDIT_CHECKPOINT",
] as const;

/** Why a chain does not verify: a code of {@linkcode AUDIT_PROBLEM_CODES}. */
export type AuditProblemCode = typeof AUDIT_PROBLEM_CODES[number];

/** The first broken link found. */
export interface AuditProblem {
  /**
   * `ERR_AUDIT_PARSE` (a line is not a canonical record), `ERR_AUDIT_HASH` (a
   * record was changed), `ERR_AUDIT_LINK` (a record was removed, added or
   * moved), `ERR_AUDIT_HEAD` (a chain does not end at the head its writer
   * stored), `ERR_AUDIT_UNRECORDED` (a stored input has no audit record),
   * `ERR_AUDIT_TRUNCATED` (a chain a checkpoint names is shorter or
   * gone), `ERR_AUDIT_REWRITTEN` (a chain differs from the checkpoint at its
   * size), `ERR_AUDIT_CHECKPOINT` (the checkpoint is not signed by the key).
   */
  readonly code: AuditProblemCode;
  /** Where: `line 12` of a file, or `record 3` of a list. */
  readonly where: string;
  /** What is wrong, in a sentence. */
  readonly message: string;
}

/** The verdict on a set of chains. */
export type AuditVerdict =
  | { readonly ok: true; readonly records: number; readonly streams: number }
  | { readonly ok: false; readonly problem: AuditProblem };

/**
 * Verify records in order (several chains may be interleaved; each must start
 * at 0 with the genesis hash and link without gaps).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linkRecord } from "./audit_record.ts";
 * import { verifyRecords } from "./verify_chain.ts";
 * const a = linkRecord("s", undefined, { kind: "session", at: "2026-11-30T15:00:00.000Z" });
 * const b = linkRecord("s", a, { kind: "message", at: "2026-11-30T15:00:01.000Z" });
 * assert.deepEqual(verifyRecords([a, b]), { ok: true, records: 2, streams: 1 });
 * assert.equal(verifyRecords([b]).ok, false);
 * ```
 */
export function verifyRecords(records: readonly unknown[], place = (i: number) => `record ${i}`): AuditVerdict {
  const heads = new Map<string, AuditRecord>();
  for (let i = 0; i < records.length; i++) {
    const where = place(i);
    const record = records[i];
    if (!isAuditRecord(record)) return broken("ERR_AUDIT_PARSE", where, "it is not an audit record");
    if (hashRecord(record) !== record.hash) {
      return broken(
        "ERR_AUDIT_HASH",
        where,
        `record ${record.seq} of "${record.stream}" was changed: its content does not hash to "${record.hash}"`,
      );
    }
    const head = heads.get(record.stream);
    const [seq, prev] = head ? [head.seq + 1, head.hash] : [0, GENESIS];
    if (record.seq !== seq || record.prev !== prev) {
      return broken(
        "ERR_AUDIT_LINK",
        where,
        `record ${record.seq} of "${record.stream}" does not follow ${
          head ? `record ${head.seq}` : "the start of the chain"
        }: expected seq ${seq} with prev "${prev}"`,
      );
    }
    heads.set(record.stream, record);
  }
  return { ok: true, records: records.length, streams: heads.size };
}

/**
 * Verify a JSONL export: one canonical record per line, byte for byte, so a
 * change to any byte is found.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linkRecord } from "./audit_record.ts";
 * import { toJsonl, verifyJsonl } from "./verify_chain.ts";
 * const text = toJsonl([linkRecord("s", undefined, { kind: "session", at: "2026-11-30T15:00:00.000Z" })]);
 * assert.equal(verifyJsonl(text).ok, true);
 * assert.equal(verifyJsonl(text.replace("session", "sessiom")).ok, false);
 * ```
 */
export function verifyJsonl(text: string): AuditVerdict {
  if (text === "") return { ok: true, records: 0, streams: 0 };
  if (!text.endsWith("\n")) return broken("ERR_AUDIT_PARSE", "the end", "the file does not end with a newline");
  const lines = text.slice(0, -1).split("\n");
  const records: unknown[] = [];
  for (let i = 0; i < lines.length; i++) {
    let value: unknown;
    try {
      value = parseJson(lines[i]);
    } catch {
      return broken("ERR_AUDIT_PARSE", `line ${i + 1}`, "it is not JSON");
    }
    let canonical: string | undefined;
    try {
      canonical = canonicalJson(value);
    } catch {
      canonical = undefined;
    }
    if (canonical !== lines[i]) {
      return broken("ERR_AUDIT_PARSE", `line ${i + 1}`, "it is not written in canonical JSON, so it was edited");
    }
    records.push(value);
  }
  return verifyRecords(records, (i) => `line ${i + 1}`);
}

/**
 * Write records as JSONL, one canonical record per line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toJsonl } from "./verify_chain.ts";
 * assert.equal(toJsonl([]), "");
 * ```
 */
export function toJsonl(records: readonly AuditRecord[]): string {
  return records.map((record) => `${canonicalJson(record)}\n`).join("");
}

/** A failed verdict. */
export function broken(code: AuditProblemCode, where: string, message: string): AuditVerdict {
  return { ok: false, problem: { code, where, message } };
}

function isAuditRecord(value: unknown): value is AuditRecord {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return typeof record.stream === "string" && Number.isSafeInteger(record.seq) && typeof record.prev === "string" &&
    typeof record.hash === "string" && typeof record.event === "object" && record.event !== null &&
    !Array.isArray(record.event) && Object.keys(record).length === 5;
}
