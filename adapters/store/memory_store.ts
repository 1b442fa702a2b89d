/**
 * pab's store in this process's memory, in plain JavaScript: no Deno KV and
 * no permissions, so it runs wherever pab runs. The same contract as
 * {@linkcode KvStore}; values are copied in and out as JSON.
 *
 * @module
 */
import { type AuditEvent, type AuditRecord, linkRecord } from "../audit/mod.ts";
import type { LedgerEffects, PabStore, ReservationRecord, SessionInput, SessionRecord } from "./pab_store.ts";
import { StoreError } from "./store_error.ts";

const MAX_KEYS = 100;

/**
 * Effects of one ledger in memory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryEffects } from "./memory_store.ts";
 * const effects = new MemoryEffects();
 * assert.equal(effects.reserve(["release.sent"], "r1"), true);
 * assert.equal(effects.reserve(["release.sent"], "r2"), false);
 * effects.commit(["release.sent"], "r1");
 * assert.ok(effects.committed().has("release.sent"));
 * ```
 */
export class MemoryEffects implements LedgerEffects {
  readonly #entries = new Map<string, { state: "reserved" | "committed"; holder: string }>();

  /** Reserve every key or none; false if any is reserved or committed. */
  reserve(keys: readonly string[], holder: string): boolean {
    if (keys.length > MAX_KEYS) {
      throw new StoreError("ERR_STORE_LIMIT", `Cannot reserve ${keys.length} effects at once: at most ${MAX_KEYS}`);
    }
    if (keys.some((key) => this.#entries.has(key))) return false;
    for (const key of keys) this.#entries.set(key, { state: "reserved", holder });
    return true;
  }

  /** Commit keys: the call finished. */
  commit(keys: readonly string[], holder: string): void {
    for (const key of keys) this.#entries.set(key, { state: "committed", holder });
  }

  /** Give up the holder's reservations of keys. */
  release(keys: readonly string[], holder: string): void {
    for (const key of keys) {
      const entry = this.#entries.get(key);
      if (entry?.state === "reserved" && entry.holder === holder) this.#entries.delete(key);
    }
  }

  /** The committed keys. */
  committed(): ReadonlySet<string> {
    return new Set([...this.#entries].filter(([, entry]) => entry.state === "committed").map(([key]) => key));
  }

  /** Nothing to read again: this process holds the only copy. */
  refresh(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * A {@linkcode PabStore} in memory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryStore } from "./memory_store.ts";
 * const store = new MemoryStore();
 * assert.equal(await store.appendInput("s", 0, { kind: "user", text: "hi" }), true);
 * assert.equal(await store.appendInput("s", 0, { kind: "user", text: "again" }), false);
 * assert.deepEqual(await store.inputs("s", 0), [{ kind: "user", text: "hi" }]);
 * ```
 */
export class MemoryStore implements PabStore {
  /** Always `memory`. */
  readonly description = "memory";
  readonly #sessions = new Map<string, string>();
  readonly #inputs = new Map<string, string[]>();
  readonly #effects = new Map<string, MemoryEffects>();
  readonly #reservations = new Map<string, string>();
  readonly #spent = new Set<string>();
  readonly #audit = new Map<string, AuditRecord[]>();

  /** Save a new session; false if the id is taken. */
  createSession(record: SessionRecord): Promise<boolean> {
    if (this.#sessions.has(record.id)) return Promise.resolve(false);
    this.#sessions.set(record.id, JSON.stringify(record));
    return Promise.resolve(true);
  }

  /** A session, or undefined. */
  session(id: string): Promise<SessionRecord | undefined> {
    const text = this.#sessions.get(id);
    return Promise.resolve(text === undefined ? undefined : JSON.parse(text));
  }

  /** Append an input at `seq`; false if that position is taken. */
  appendInput(session: string, seq: number, input: SessionInput): Promise<boolean> {
    const inputs = this.#inputs.get(session) ?? [];
    if (seq !== inputs.length) return Promise.resolve(false);
    inputs.push(JSON.stringify(input));
    this.#inputs.set(session, inputs);
    return Promise.resolve(true);
  }

  /** The inputs of a session from `from` on. */
  inputs(session: string, from: number): Promise<SessionInput[]> {
    return Promise.resolve((this.#inputs.get(session) ?? []).slice(from).map((text) => JSON.parse(text)));
  }

  /** The effects of a ledger. */
  effects(ledger: string): LedgerEffects {
    let effects = this.#effects.get(ledger);
    if (!effects) this.#effects.set(ledger, effects = new MemoryEffects());
    return effects;
  }

  /** Keep a reservation until it is finished. */
  saveReservation(record: ReservationRecord): Promise<void> {
    this.#reservations.set(`${record.session}\u0000${record.id}`, JSON.stringify(record));
    return Promise.resolve();
  }

  /** An unfinished reservation, or undefined. */
  reservation(session: string, id: string): Promise<ReservationRecord | undefined> {
    const text = this.#reservations.get(`${session}\u0000${id}`);
    return Promise.resolve(text === undefined ? undefined : JSON.parse(text));
  }

  /** Mark a reservation finished; false if it was already finished or never made. */
  finishReservation(session: string, id: string): Promise<boolean> {
    return Promise.resolve(this.#reservations.delete(`${session}\u0000${id}`));
  }

  /** Spend a ruling; false if it was already spent. */
  spendRuling(session: string, id: string): Promise<boolean> {
    const key = `${session}\u0000${id}`;
    if (this.#spent.has(key)) return Promise.resolve(false);
    this.#spent.add(key);
    return Promise.resolve(true);
  }

  /** Append an event to a chain. */
  appendAudit(stream: string, event: AuditEvent): Promise<AuditRecord> {
    const chain = this.#audit.get(stream) ?? [];
    const record = linkRecord(stream, chain.at(-1), event);
    chain.push(record);
    this.#audit.set(stream, chain);
    return Promise.resolve(record);
  }

  /** The records of one chain, or of every chain (in the order the chains were started). */
  audit(stream?: string): Promise<AuditRecord[]> {
    const chains = stream === undefined ? [...this.#audit.values()] : [this.#audit.get(stream) ?? []];
    return Promise.resolve(chains.flat().map((record) => JSON.parse(JSON.stringify(record))));
  }

  /** Nothing to close. */
  close(): void {}
}
