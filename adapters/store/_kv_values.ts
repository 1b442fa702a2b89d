// Values read back from Deno KV are checked before pab uses them: a store is trusted, but one damaged, written by
// another program or edited by hand must fail ERR_STORE_CORRUPT (an operator must act), never be read as something
// else. A text whose parts do not add up, dropped silently, took a tool's untrusted output out of a session's
// context; an input of an unknown shape, or a session record that is not one, failed as an I/O error.
import type { SessionInput, SessionRecord } from "./pab_store.ts";
import { parseJson } from "../json/mod.ts";
import { StoreError } from "./store_error.ts";

/** `ERR_STORE_CORRUPT` for the value at `key`, saying why. */
export function corruptValue(key: Deno.KvKey, why: string): StoreError {
  return new StoreError(
    "ERR_STORE_CORRUPT",
    `Cannot read ${JSON.stringify(key)} in the store: ${why} (restore the store from a backup)`,
  );
}

/** The session input stored as `text` at `key`, or `ERR_STORE_CORRUPT` when it is not one this version knows. */
export function sessionInput(key: Deno.KvKey, text: string): SessionInput {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    throw corruptValue(key, "its text is not JSON");
  }
  const input = value as Record<string, unknown> | null;
  const known = typeof input === "object" && input !== null && !Array.isArray(input) && (
    input.kind === "system" || input.kind === "user"
      ? typeof input.text === "string"
      : input.kind === "result"
      ? typeof input.tool === "string" && (input.args === undefined || isObject(input.args))
      : input.kind === "ruling"
      ? typeof input.id === "string" && typeof input.approver === "string" && typeof input.tool === "string" &&
        isObject(input.args)
      : false
  );
  if (!known) throw corruptValue(key, "it is not a session input this version knows");
  return value as SessionInput;
}

/** A stored session record, or undefined when there is none; `ERR_STORE_CORRUPT` when it is not one. */
export function sessionRecord(entry: Deno.KvEntryMaybe<unknown>): SessionRecord | undefined {
  if (entry.versionstamp === null) return undefined;
  const record = entry.value as Partial<SessionRecord> | null;
  if (
    typeof record !== "object" || record === null || typeof record.id !== "string" ||
    typeof record.ledger !== "string" || typeof record.created !== "string"
  ) {
    throw corruptValue(entry.key, "it is not a session record");
  }
  return record as SessionRecord;
}

/** A chain's stored head, or `ERR_STORE_CORRUPT` when it is not one. */
export function chainHead(key: Deno.KvKey, value: unknown): { seq: number; hash: string } {
  const head = value as { seq?: unknown; hash?: unknown } | null;
  if (
    typeof head !== "object" || head === null || !Number.isSafeInteger(head.seq) || (head.seq as number) < 0 ||
    typeof head.hash !== "string" || !/^[0-9a-f]{64}$/.test(head.hash)
  ) {
    throw corruptValue(key, "it is not the head of an audit chain");
  }
  return head as { seq: number; hash: string };
}

function isObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
