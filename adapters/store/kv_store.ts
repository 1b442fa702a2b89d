/**
 * pab's store on Deno KV: in memory (`:memory:`), a local file, or a remote
 * KV by URL (a self-hosted `denokv` server or Deno Deploy). Every write that
 * several processes may race on is an atomic check-and-set.
 *
 * @module
 */
import { type AuditEvent, type AuditRecord, linkRecord } from "../audit/mod.ts";
import { backoff, listTexts, retryBusy, setText } from "./_kv_text.ts";
import { KvEffects } from "./kv_effects.ts";
import type { LedgerEffects, PabStore, ReservationRecord, SessionInput, SessionRecord } from "./pab_store.ts";
import { StoreError } from "./store_error.ts";

const ATTEMPTS = 200;

/**
 * A {@linkcode PabStore} over an open `Deno.Kv`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { KvStore } from "./kv_store.ts";
 * const store = new KvStore(await Deno.openKv(":memory:"), "memory");
 * assert.equal(await store.createSession({ id: "s_1", ledger: "s_1", created: "2026-11-30T15:00:00.000Z" }), true);
 * assert.equal(await store.appendInput("s_1", 0, { kind: "user", text: "hi" }), true);
 * assert.equal(await store.appendInput("s_1", 0, { kind: "user", text: "again" }), false);
 * assert.deepEqual(await store.inputs("s_1", 0), [{ kind: "user", text: "hi" }]);
 * store.close();
 * ```
 */
export class KvStore implements PabStore {
  /** Where the store is, for messages. */
  readonly description: string;
  readonly #kv: Deno.Kv;
  readonly #effects = new Map<string, KvEffects>();
  readonly #auditQueues = new Map<string, Promise<unknown>>();

  /** Wrap an open KV; `description` names it in messages. */
  constructor(kv: Deno.Kv, description: string) {
    this.#kv = kv;
    this.description = description;
  }

  /** Save a new session; false if the id is taken. */
  createSession(record: SessionRecord): Promise<boolean> {
    return retryBusy(async () => {
      const key = ["pab", "session", record.id];
      return (await this.#kv.atomic().check({ key, versionstamp: null }).set(key, record).commit()).ok;
    });
  }

  /** A session, or undefined. */
  session(id: string): Promise<SessionRecord | undefined> {
    return retryBusy(async () => {
      return (await this.#kv.get<SessionRecord>(["pab", "session", id])).value ?? undefined;
    });
  }

  /** Append an input at `seq`; false if that position is taken. */
  appendInput(session: string, seq: number, input: SessionInput): Promise<boolean> {
    return retryBusy(async () => {
      const key = ["pab", "in", session, seq];
      const operation = this.#kv.atomic().check({ key: [...key, 0], versionstamp: null });
      return (await setText(operation, key, JSON.stringify(input)).commit()).ok;
    });
  }

  /** The inputs of a session from `from` on. */
  inputs(session: string, from: number): Promise<SessionInput[]> {
    return retryBusy(async () => {
      const prefix = ["pab", "in", session];
      const texts = await listTexts(this.#kv, { prefix, start: [...prefix, from] }, 3);
      return texts.map((entry) => JSON.parse(entry.text));
    });
  }

  /** The effects of a ledger (one object per ledger, shared by its sessions in this process). */
  effects(ledger: string): LedgerEffects {
    let effects = this.#effects.get(ledger);
    if (!effects) this.#effects.set(ledger, effects = new KvEffects(this.#kv, ledger));
    return effects;
  }

  /** Keep a reservation until it is finished. */
  saveReservation(record: ReservationRecord): Promise<void> {
    return retryBusy(async () => {
      const key = ["pab", "res", record.session, record.id];
      const result = await setText(this.#kv.atomic(), key, JSON.stringify(record)).commit();
      if (!result.ok) throw new StoreError("ERR_STORE_WRITE", `Cannot save reservation "${record.id}"`);
    });
  }

  /** An unfinished reservation, or undefined. */
  reservation(session: string, id: string): Promise<ReservationRecord | undefined> {
    return retryBusy(async () => {
      const texts = await listTexts(this.#kv, { prefix: ["pab", "res", session, id] }, 3);
      return texts.length ? JSON.parse(texts[0].text) : undefined;
    });
  }

  /** Mark a reservation finished; false if it was already finished or never made. */
  finishReservation(session: string, id: string): Promise<boolean> {
    return retryBusy(async () => {
      const prefix = ["pab", "res", session, id];
      const entries = [];
      for await (const entry of this.#kv.list({ prefix })) entries.push(entry);
      if (!entries.length) return false;
      const operation = this.#kv.atomic();
      for (const entry of entries) operation.check(entry).delete(entry.key);
      return (await operation.commit()).ok;
    });
  }

  /** Spend a ruling; false if it was already spent. */
  spendRuling(session: string, id: string): Promise<boolean> {
    return retryBusy(async () => {
      const key = ["pab", "spent", session, id];
      return (await this.#kv.atomic().check({ key, versionstamp: null }).set(key, true).commit()).ok;
    });
  }

  /** Append an event after the chain's current head, retrying while other writers move the head. */
  appendAudit(stream: string, event: AuditEvent): Promise<AuditRecord> {
    // One append at a time per chain in this process; other processes are handled by the atomic check.
    const previous = this.#auditQueues.get(stream) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(() => this.#appendAudit(stream, event));
    this.#auditQueues.set(stream, next);
    const tidy = () => {
      if (this.#auditQueues.get(stream) === next) this.#auditQueues.delete(stream);
    };
    next.then(tidy, tidy);
    return next;
  }

  async #appendAudit(stream: string, event: AuditEvent): Promise<AuditRecord> {
    const headKey = ["pab", "head", stream];
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const record = await retryBusy(async () => {
        const head = await this.#kv.get<{ seq: number; hash: string }>(headKey);
        const record = linkRecord(stream, head.value ?? undefined, event);
        const operation = this.#kv.atomic().check(head).set(headKey, { seq: record.seq, hash: record.hash });
        setText(operation, ["pab", "audit", stream, record.seq], JSON.stringify(record));
        return (await operation.commit()).ok ? record : undefined;
      });
      if (record) return record;
      await backoff(attempt);
    }
    throw new StoreError("ERR_STORE_WRITE", `Cannot append to audit chain "${stream}": other writers kept moving it`);
  }

  /** The records of one chain, or of every chain, in order. */
  audit(stream?: string): Promise<AuditRecord[]> {
    return retryBusy(async () => {
      const streams: string[] = [];
      if (stream !== undefined) streams.push(stream);
      else for await (const entry of this.#kv.list({ prefix: ["pab", "head"] })) streams.push(String(entry.key[2]));
      const records: AuditRecord[] = [];
      for (const name of streams) {
        const texts = await listTexts(this.#kv, { prefix: ["pab", "audit", name] }, 3);
        records.push(...texts.map((entry) => JSON.parse(entry.text) as AuditRecord));
      }
      return records;
    });
  }

  /** Close the KV. */
  close(): void {
    this.#kv.close();
  }
}
