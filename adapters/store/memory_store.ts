/**
 * pab's store in this process's memory, in plain JavaScript: no Deno KV and
 * no permissions, so it runs wherever pab runs. The same contract as
 * {@linkcode KvStore}; values are copied in and out as JSON.
 *
 * @module
 */
import { type AuditEvent, type AuditRecord, jsonAround, linkText } from "../audit/mod.ts";
import type {
  EffectCommit,
  FinishResult,
  InputsCheck,
  LedgerEffects,
  PabStore,
  ReservationFinish,
  ReservationRecord,
  SessionInput,
  SessionRecord,
  StoreHealth,
} from "./pab_store.ts";
import { parseJson } from "../json/mod.ts";
import { linkInput } from "./_input_link.ts";
import { ownCopy, shareInputText, textAround, type WrittenPiece, writtenPiece } from "./_memory_text.ts";
import { sharedSource } from "./_kv_shared.ts";
import { StoreError } from "./store_error.ts";

const MAX_KEYS = 100;
/** How many ended sessions' chains (their last record and head) the in-memory store keeps. */
export const ENDED_CHAINS = 10_000;

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
  readonly #written: () => void;
  /**
   * The committed keys as a set, made when first asked after a commit and then shared (never changed: a commit makes
   * the next one): every decision asks, and building it each time cost a pass over every effect the ledger holds.
   */
  #committed: ReadonlySet<string> | undefined;

  /** Effects with no entry yet; `written` is called before the first entry is kept. */
  constructor(written: () => void = () => {}) {
    this.#written = written;
  }

  /** Reserve every key or none; false if any is reserved or committed. */
  reserve(keys: readonly string[], holder: string): boolean {
    if (keys.length > MAX_KEYS) {
      throw new StoreError("ERR_STORE_LIMIT", `Cannot reserve ${keys.length} effects at once: at most ${MAX_KEYS}`);
    }
    if (keys.some((key) => this.#entries.has(key))) return false;
    if (keys.length) this.#written();
    for (const key of keys) this.#entries.set(key, { state: "reserved", holder });
    return true;
  }

  /** Commit keys: the call finished. */
  commit(keys: readonly string[], holder: string): void {
    if (keys.length) this.#written();
    for (const key of keys) this.#entries.set(key, { state: "committed", holder });
    if (keys.length) this.#committed = undefined;
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
    return this.#committed ??= new Set(
      [...this.#entries].filter(([, entry]) => entry.state === "committed").map(([key]) => key),
    );
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
  /** Each ledger's effects while a session holds them (a ledger nothing was ever written to leaves with them)... */
  readonly #effects = new Map<string, WeakRef<MemoryEffects>>();
  /** ...and for good once something was (its `once` effects outlive its sessions). */
  readonly #written = new Map<string, MemoryEffects>();
  readonly #unheld = new FinalizationRegistry<string>((ledger) => {
    if (this.#effects.get(ledger)?.deref() === undefined) this.#effects.delete(ledger);
  });
  /** Sessions that ended, oldest first: each keeps its chain's last record and head, up to {@linkcode ENDED_CHAINS}. */
  readonly #ended = new Set<string>();
  /** Open reservations (as JSON), by session, then by id. */
  readonly #reservations = new Map<string, Map<string, string>>();
  /** Spent rulings, by session. */
  readonly #spent = new Map<string, Set<string>>();
  /** Each chain: its head, and its records as JSON (a third of the memory of the parsed records). */
  readonly #audit = new Map<string, { head: { seq: number; hash: string }; records: string[] }>();

  /** Save a new session and its first audit events; false if the id is taken. */
  createSession(record: SessionRecord, audit: readonly AuditEvent[] = []): Promise<boolean> {
    if (this.#sessions.has(record.id)) return Promise.resolve(false);
    this.#sessions.set(record.id, JSON.stringify(record));
    this.#chain(record.id, audit);
    return Promise.resolve(true);
  }

  /** A session, or undefined. */
  session(id: string): Promise<SessionRecord | undefined> {
    const text = this.#sessions.get(id);
    return Promise.resolve(text === undefined ? undefined : parseJson(text) as SessionRecord);
  }

  /** Append an input at `seq` with its audit events; false if that position is taken. */
  appendInput(
    session: string,
    seq: number,
    input: SessionInput,
    audit: readonly AuditEvent[] = [],
    commit?: EffectCommit,
  ): Promise<boolean> {
    const inputs = this.#inputs.get(session) ?? [];
    if (seq !== inputs.length) return Promise.resolve(false);
    if (commit) this.effects(commit.ledger).commit(commit.keys, commit.holder);
    this.#record(session, input, linkInput(audit, { seq, input }));
    return Promise.resolve(true);
  }

  /** The inputs of a session from `from` on. */
  inputs(session: string, from: number): Promise<SessionInput[]> {
    const inputs = this.#inputs.get(session) ?? [];
    return Promise.resolve(
      from >= inputs.length ? [] : inputs.slice(from).map((text) => parseJson(text) as SessionInput),
    );
  }

  /** The effects of a ledger. */
  effects(ledger: string): MemoryEffects {
    let effects = this.#written.get(ledger) ?? this.#effects.get(ledger)?.deref();
    if (!effects) {
      const made: MemoryEffects = new MemoryEffects(() => void this.#written.set(ledger, made));
      this.#effects.set(ledger, new WeakRef(made));
      this.#unheld.register(made, ledger);
      effects = made;
    }
    return effects;
  }

  /** Keep a reservation, spend rulings and append audit events; false if a ruling was spent already. */
  saveReservation(
    record: ReservationRecord,
    options: { readonly spend?: readonly string[]; readonly audit?: readonly AuditEvent[] } = {},
  ): Promise<boolean> {
    const spend = [...new Set(options.spend ?? [])];
    const spent = this.#spent.get(record.session);
    if (spend.some((id) => spent?.has(id))) return Promise.resolve(false);
    for (const id of spend) this.#spendOnce(record.session, id);
    let open = this.#reservations.get(record.session);
    if (!open) this.#reservations.set(record.session, open = new Map());
    open.set(record.id, JSON.stringify(record));
    this.#chain(record.session, options.audit ?? []);
    return Promise.resolve(true);
  }

  /** An unfinished reservation, or undefined. */
  reservation(session: string, id: string): Promise<ReservationRecord | undefined> {
    const text = this.#reservations.get(session)?.get(id);
    return Promise.resolve(text === undefined ? undefined : parseJson(text) as ReservationRecord);
  }

  /** Every unfinished reservation of a session. */
  openReservations(session: string): Promise<ReservationRecord[]> {
    return Promise.resolve(
      [...this.#reservations.get(session)?.values() ?? []].map((text) => parseJson(text) as ReservationRecord),
    );
  }

  /** Finish a reservation: keys committed or released, output and audit events appended. */
  finishReservation(session: string, id: string, finish: ReservationFinish): Promise<FinishResult> {
    const open = this.#reservations.get(session);
    const text = open?.get(id);
    if (open === undefined || text === undefined) return Promise.resolve("unknown");
    if (finish.input && finish.input.seq !== (this.#inputs.get(session) ?? []).length) return Promise.resolve("moved");
    const record = parseJson(text) as ReservationRecord;
    open.delete(id);
    if (!open.size) this.#reservations.delete(session);
    const sessionText = this.#sessions.get(session);
    const effects = this.effects(
      sessionText === undefined ? session : (parseJson(sessionText) as SessionRecord).ledger,
    );
    if (finish.outcome === "commit") {
      effects.commit(record.effects, record.holder);
      effects.release(record.checks, record.holder);
    }
    effects.release(record.keys, record.holder);
    if (finish.input) {
      this.#record(session, finish.input.input, linkInput(finish.audit ?? [], finish.input));
    } else this.#chain(session, finish.audit ?? []);
    return Promise.resolve("finished");
  }

  /** Spend a ruling; false if it was already spent. */
  spendRuling(session: string, id: string): Promise<boolean> {
    return Promise.resolve(this.#spendOnce(session, id));
  }

  /** Append an event to a chain. */
  appendAudit(stream: string, event: AuditEvent): Promise<AuditRecord> {
    return Promise.resolve(parseJson(this.#chain(stream, [event])[0]) as AuditRecord);
  }

  /** Append events to a chain at once. */
  appendAuditEvents(stream: string, events: readonly AuditEvent[]): Promise<AuditRecord[]> {
    return Promise.resolve(this.#chain(stream, events).map((text) => parseJson(text) as AuditRecord));
  }

  /** Append events to a chain at once, without reading the records back; with `check`, only while it holds. */
  writeAuditEvents(stream: string, events: readonly AuditEvent[]): Promise<void>;
  writeAuditEvents(stream: string, events: readonly AuditEvent[], check: InputsCheck): Promise<boolean>;
  writeAuditEvents(stream: string, events: readonly AuditEvent[], check?: InputsCheck): Promise<boolean | void> {
    if (check && this.#inputs.get(stream)?.[check.expectInputs] !== undefined) return Promise.resolve(false);
    this.#chain(stream, events);
    return Promise.resolve(check ? true : undefined);
  }

  /**
   * Drop a session's inputs, spent rulings and record (kept while it has open
   * reservations; its effects and open reservations stay). Its audit records
   * go too, but the last (`pab serve` writes why the session ended just
   * before), unless it has open reservations: nothing outside this process
   * can read them, and keeping every ended session's records made memory grow
   * without bound. The chain's head stays, so later events still link to it,
   * for the last {@linkcode ENDED_CHAINS} sessions that ended; an older one's
   * chain is forgotten whole. A durable audit needs a KV store, which keeps
   * every chain.
   */
  deleteSession(id: string): Promise<void> {
    this.#inputs.delete(id);
    this.#spent.delete(id);
    // Its ledger's effects stay: other sessions may share the ledger, and its `once` effects stay spent.
    if (!this.#reservations.has(id)) {
      this.#sessions.delete(id);
      const chain = this.#audit.get(id);
      if (chain) chain.records = chain.records.slice(-1);
      this.#ended.delete(id);
      this.#ended.add(id);
      if (this.#ended.size > ENDED_CHAINS) {
        const oldest = this.#ended.values().next().value as string;
        this.#ended.delete(oldest);
        // Unless it was made again since (an id given by the caller), its chain goes.
        if (!this.#sessions.has(oldest)) this.#audit.delete(oldest);
      }
    }
    return Promise.resolve();
  }

  /** The records of one chain, or of every chain (in the order the chains were started). */
  audit(stream?: string): Promise<AuditRecord[]> {
    const chains = stream === undefined ? [...this.#audit.values()] : [this.#audit.get(stream)];
    return Promise.resolve(
      chains.flatMap((chain) => chain?.records.map((text) => parseJson(text) as AuditRecord) ?? []),
    );
  }

  /** The head of each chain. */
  heads(): Promise<Map<string, { readonly seq: number; readonly hash: string }>> {
    return Promise.resolve(new Map([...this.#audit].map(([stream, { head }]) => [stream, { ...head }])));
  }

  /** The id of every session kept. */
  sessionIds(): Promise<string[]> {
    return Promise.resolve([...this.#sessions.keys()]);
  }

  /** Always healthy: this process holds the only copy. */
  probe(): Promise<StoreHealth> {
    return Promise.resolve({ ok: true, description: this.description, latencyMs: 0 });
  }

  #spendOnce(session: string, id: string): boolean {
    let spent = this.#spent.get(session);
    if (!spent) this.#spent.set(session, spent = new Set());
    if (spent.has(id)) return false;
    spent.add(id);
    return true;
  }

  /**
   * Keep `input`'s text after the session's inputs and link `events` (written with it): the input's long string (its
   * output or text) is escaped once, and both texts are written around it when an event holds it; else the input's
   * text shares it with the record that holds it, found by search.
   */
  #record(session: string, input: SessionInput, events: readonly AuditEvent[]): void {
    const inputs = this.#inputs.get(session) ?? [];
    const written = writtenPiece(input, events);
    const around = written && jsonAround(input, written.string, JSON.stringify);
    const seq = inputs.push(around ? around.before + written!.string.json + around.after : JSON.stringify(input)) - 1;
    this.#inputs.set(session, inputs);
    const texts = this.#chain(session, events, around && written);
    inputs[seq] = around
      ? textAround(around, written!.string.json, texts[written!.index])
      : inputText(input, inputs[seq], texts);
  }

  /** Link `events` after the chain's head and keep them (`written`'s event written around its string); returns their texts. */
  #chain(stream: string, events: readonly AuditEvent[], written?: WrittenPiece): string[] {
    if (!events.length) return [];
    const chain = this.#audit.get(stream);
    let head: Pick<AuditRecord, "seq" | "hash"> | undefined = chain?.head;
    const texts: string[] = [];
    for (const [i, event] of events.entries()) {
      const linked = linkText(stream, head, event, i === written?.index ? written.string : undefined);
      // Kept flat: a record joined from its event's many pieces keeps every piece alive until it is read.
      texts.push(ownCopy(linked.text));
      head = linked;
    }
    const last = { seq: head!.seq, hash: head!.hash };
    if (chain) {
      chain.records.push(...texts);
      chain.head = last;
    } else this.#audit.set(stream, { head: last, records: texts });
    return texts;
  }

  /** Nothing to close. */
  close(): void {}
}

/** An input's JSON `text`, sharing its longest string with the audit record (of `records`, the step's) that holds it too. */
function inputText(input: SessionInput, text: string, records: readonly string[]): string {
  // The piece a KV store shares too: the longest string of the output or message, if it is long enough to matter.
  const longest = sharedSource(0, input, text)?.longest;
  for (let i = records.length - 1; longest !== undefined && i >= 0; i--) {
    const shared = shareInputText(text, longest, records[i]);
    if (shared !== undefined) return shared;
  }
  return text;
}
