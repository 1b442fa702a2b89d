/**
 * pab's store on Deno KV: in memory (`:memory:`), a local file, or a remote
 * KV by URL (a self-hosted `denokv` server or Deno Deploy). Every logical
 * step is one atomic write with its checks, so a process killed at any point
 * leaves either the whole step or none of it.
 *
 * @module
 */
import type { AuditEvent, AuditRecord, LinkedText } from "../audit/mod.ts";
import { addAudit, type HeadEntry, readChains, readHeads, readSessionIds } from "./_kv_audit.ts";
import { dropSession } from "./_kv_drop.ts";
import { linkInput } from "./_input_link.ts";
import { FAR_EXPIRY, GroupCommitter, type KvMutations, StagedWrite } from "./_kv_batch.ts";
import { inputKey, KvInputs, type StagedInput } from "./_kv_inputs.ts";
import { ReadBatcher } from "./_kv_reads.ts";
import { Recent } from "./_kv_recent.ts";
import { KvGate } from "./_kv_gate.ts";
import { stageReservation } from "./_kv_reservation.ts";
import { markStore, probeStore } from "./_kv_stamp.ts";
import { backoff, getAll, listTexts, partText } from "./_kv_text.ts";
import { KvEffects, releaseStaleHolds } from "./kv_effects.ts";
import { type EffectEntry, effectKey } from "./_kv_effect_keys.ts";
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
import type { FileIdentity } from "./safe_path.ts";
import { StoreError } from "./store_error.ts";
import { sessionRecord } from "./_kv_values.ts";
import { parseJson } from "../json/mod.ts";

const ATTEMPTS = 200;

/** The input a write appends (its audit record joins `staged`'s row, or shares text with it). */
interface WrittenInput {
  readonly session: string;
  readonly seq: number;
  staged?: StagedInput;
}

/** Options of a {@linkcode KvStore}. */
export interface KvStoreOptions {
  /** The most one call may take, in milliseconds (default 10,000). */
  readonly deadline?: number;
  /** Whether the KV is remote (a missed deadline then means the server does not answer). */
  readonly remote?: boolean;
  /** The local file's identity, checked before every call (a deleted or replaced file fails `ERR_STORE_GONE`). */
  readonly identity?: FileIdentity;
  /** How old a hold must be before {@linkcode KvStore.repair} releases it, in milliseconds (default 10 minutes). */
  readonly holdGrace?: number;
  /** Give the rows a step writes an expiry about 142,700 years ahead (never, in practice) instead of none: on a local
   * file, SQLite's index of expiries then grows at its end, not at one place per session (default false; set by path). */
  readonly farExpiry?: boolean;
}

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
  readonly #gate: KvGate;
  /** Each ledger's effects while a session holds them (they are only a snapshot of the store's). */
  readonly #effects = new Map<string, WeakRef<KvEffects>>();
  readonly #unheld = new FinalizationRegistry<string>((ledger) => {
    if (this.#effects.get(ledger)?.deref() === undefined) this.#effects.delete(ledger);
  });
  readonly #holdGrace: number;
  readonly #committer: GroupCommitter;
  /** The heads this process last wrote, by chain (a forgotten head is read from the store). */
  readonly #knownHeads = new Recent<HeadEntry>(10_000);
  readonly #inputs: KvInputs;
  #stamp: string | undefined;

  /** Wrap an open KV; `description` names it in messages. */
  constructor(kv: Deno.Kv, description: string, options: KvStoreOptions = {}) {
    this.#kv = kv;
    this.description = description;
    this.#gate = new KvGate(description, {
      deadline: options.deadline ?? 10_000,
      remote: options.remote ?? false,
      ...(options.identity ? { identity: options.identity } : {}),
    });
    this.#holdGrace = options.holdGrace ?? 600_000;
    this.#committer = new GroupCommitter(kv, options.farExpiry ? FAR_EXPIRY : undefined);
    this.#inputs = new KvInputs(kv, new ReadBatcher(kv));
  }

  /** Save a new session and its first audit events in one write; false if the id is taken. */
  createSession(record: SessionRecord, audit: readonly AuditEvent[] = []): Promise<boolean> {
    return this.#write("make a session", record.id, audit, (operation) => {
      const key = ["pab", "session", record.id];
      operation.check({ key, versionstamp: null }).set(key, record);
      return Promise.resolve(true);
    }, async () => (await this.#kv.get(["pab", "session", record.id])).versionstamp === null);
  }

  /** A session, or undefined. */
  session(id: string): Promise<SessionRecord | undefined> {
    return this.#gate.run("read a session", async () => {
      return sessionRecord(await this.#kv.get(["pab", "session", id]));
    });
  }

  /** Append an input at `seq` with its audit events, in one write; false if that position is taken. */
  appendInput(
    session: string,
    seq: number,
    input: SessionInput,
    audit: readonly AuditEvent[] = [],
    commit?: EffectCommit,
  ): Promise<boolean> {
    const key = inputKey(session, seq);
    const written: WrittenInput = { session, seq };
    return this.#inputs.appending(session, seq, () =>
      this.#write(
        "append an input",
        session,
        linkInput(audit, { seq, input }),
        async (operation) => {
          written.staged = await this.#inputs.add(operation, session, seq, input);
          for (const effect of new Set(commit?.keys ?? [])) {
            operation.set(
              effectKey(commit!.ledger, effect),
              { state: "committed", holder: commit!.holder } satisfies EffectEntry,
            );
          }
          return true;
        },
        async () => (await this.#kv.get([...key, 0])).versionstamp === null,
        written,
      ));
  }

  /** The inputs of a session from `from` on. */
  inputs(session: string, from: number): Promise<SessionInput[]> {
    return this.#gate.run("read inputs", () => this.#inputs.read(session, from));
  }

  /** The effects of a ledger (one object per ledger, shared by its sessions in this process while any holds it). */
  effects(ledger: string): LedgerEffects {
    let effects = this.#effects.get(ledger)?.deref();
    if (!effects) {
      effects = new KvEffects(this.#kv, this.#gate, ledger, this.#committer);
      this.#effects.set(ledger, new WeakRef(effects));
      this.#unheld.register(effects, ledger);
    }
    return effects;
  }

  /** Turn the hold of a reservation's keys into its record, spend rulings and append audit events, in one write. */
  saveReservation(
    record: ReservationRecord,
    options: { readonly spend?: readonly string[]; readonly audit?: readonly AuditEvent[] } = {},
  ): Promise<boolean> {
    return this.#write(
      "save a reservation",
      record.session,
      options.audit ?? [],
      async (operation) =>
        stageReservation(this.#kv, operation, record, await this.#ledgerOf(record), options.spend ?? []),
    );
  }

  /** An unfinished reservation, or undefined. */
  reservation(session: string, id: string): Promise<ReservationRecord | undefined> {
    return this.#gate.run("read a reservation", async () => {
      const texts = await listTexts(this.#kv, { prefix: ["pab", "res", session, id] }, 3);
      return texts.length ? parseJson(texts[0].text) as ReservationRecord : undefined;
    });
  }

  /** Every unfinished reservation of a session. */
  openReservations(session: string): Promise<ReservationRecord[]> {
    return this.#gate.run("list reservations", async () => {
      const texts = await listTexts(this.#kv, { prefix: ["pab", "res", session] }, 3);
      return texts.map((entry) => parseJson(entry.text) as ReservationRecord);
    });
  }

  /** Finish a reservation: record gone, keys committed or released, output and audit events appended, in one write. */
  finishReservation(session: string, id: string, finish: ReservationFinish): Promise<FinishResult> {
    const audit = linkInput(finish.audit ?? [], finish.input);
    const written: WrittenInput | undefined = finish.input ? { session, seq: finish.input.seq } : undefined;
    const write = () =>
      this.#write<FinishResult>(
        "finish a reservation",
        session,
        audit,
        async (operation) => {
          const parts: Deno.KvEntry<{ count: number; text: string }>[] = [];
          for await (
            const entry of this.#kv.list<{ count: number; text: string }>({ prefix: ["pab", "res", session, id] })
          ) {
            parts.push(entry);
          }
          if (!parts.length || parts.length !== parts[0].value.count) return "unknown";
          for (const part of parts) operation.check(part).delete(part.key);
          const texts = await Promise.all(parts.map((part) => partText(this.#kv, part.value)));
          const record = parseJson(texts.join("")) as ReservationRecord;
          const ledger = await this.#ledgerOf(record);
          const commit = finish.outcome === "commit" ? new Set(record.effects) : new Set<string>();
          const mine = [...new Set([...record.keys, ...record.checks])].filter((key) => !commit.has(key));
          for (const entry of await getAll<EffectEntry>(this.#kv, mine.map((key) => effectKey(ledger, key)))) {
            if (entry.value?.state === "reserved" && entry.value.holder === record.holder) {
              operation.check(entry).delete(entry.key);
            }
          }
          for (const key of commit) {
            operation.set(effectKey(ledger, key), { state: "committed", holder: record.holder } satisfies EffectEntry);
          }
          if (finish.input) {
            if ((await this.#kv.get([...inputKey(session, finish.input.seq), 0])).versionstamp !== null) return "moved";
            written!.staged = await this.#inputs.add(operation, session, finish.input.seq, finish.input.input);
          }
          return "finished";
        },
        undefined,
        written,
      );
    return finish.input ? this.#inputs.appending(session, finish.input.seq, write) : write();
  }

  /** Spend a ruling; false if it was already spent. */
  spendRuling(session: string, id: string): Promise<boolean> {
    return this.#gate.run("spend a ruling", async () => {
      const key = ["pab", "spent", session, id];
      return (await this.#committer.commit(new StagedWrite().check({ key, versionstamp: null }).set(key, true))) !==
        null;
    });
  }

  /** Append an event after the chain's current head, retrying while other writers move the head. */
  async appendAudit(stream: string, event: AuditEvent): Promise<AuditRecord> {
    return (await this.appendAuditEvents(stream, [event]))[0];
  }

  /** Append events after the chain's current head in one write, retrying while other writers move the head. */
  async appendAuditEvents(stream: string, events: readonly AuditEvent[]): Promise<AuditRecord[]> {
    if (!events.length) return [];
    let appended: AuditRecord[] = [];
    await this.#write(
      "append to the audit chain",
      stream,
      events,
      () => Promise.resolve(true),
      undefined,
      undefined,
      (records) => {
        appended = records.map((record) => parseJson(record.text) as AuditRecord);
      },
    );
    return appended;
  }

  /** Append events after the chain's current head in one write, as `appendAuditEvents` does, without reading them back. */
  writeAuditEvents(stream: string, events: readonly AuditEvent[]): Promise<void>;
  /** Write them only while session `stream` has no input at `check.expectInputs` (checked in the same atomic write). */
  writeAuditEvents(stream: string, events: readonly AuditEvent[], check: InputsCheck): Promise<boolean>;
  async writeAuditEvents(stream: string, events: readonly AuditEvent[], check?: InputsCheck): Promise<boolean | void> {
    if (!check && !events.length) return;
    // Inputs have no gap: an empty position means none after it either. Its first part is there once it is.
    const slot = check && { key: [...inputKey(stream, check.expectInputs), 0], versionstamp: null };
    const written = await this.#write("append to the audit chain", stream, events, (operation) => {
      if (slot) operation.check(slot);
      return Promise.resolve(true);
    }, slot && (async () => (await this.#kv.get(slot.key)).versionstamp === null));
    return check ? written : undefined;
  }

  /** Drop a session's inputs, spent rulings and record (kept while it has open reservations; its audit chain, effects and open reservations stay). */
  deleteSession(id: string): Promise<void> {
    // The head this process wrote is forgotten too (a later write reads it back): an ended chain's stays in the store.
    this.#knownHeads.delete(id);
    this.#inputs.forget(id);
    return this.#gate.run("delete a session", () => dropSession(this.#kv, id));
  }

  /** The records of one chain, or of every chain (every chain that has records, headed or not), in order. */
  audit(stream?: string): Promise<AuditRecord[]> {
    return this.#gate.run("read the audit chain", () => readChains(this.#kv, stream));
  }

  /** The head each chain's writer recorded, by chain. */
  heads(): Promise<Map<string, { readonly seq: number; readonly hash: string }>> {
    return this.#gate.run("read the audit heads", () => readHeads(this.#kv));
  }

  /** The id of every session kept. */
  sessionIds(): Promise<string[]> {
    return this.#gate.run("list the sessions", () => readSessionIds(this.#kv));
  }

  /**
   * Mark the store as pab's at open (a random id under `["pab", "meta",
   * "store"]`, written once), and remember it: {@linkcode KvStore.probe}
   * fails `ERR_STORE_GONE` when a store answers with another id.
   */
  async stamp(): Promise<void> {
    this.#stamp = await this.#gate.run("mark the store", () => markStore(this.#kv));
  }

  /**
   * Repair what a process killed mid-step can leave: holds older than the
   * grace period (keys reserved by a call whose reservation record was never
   * saved, so no caller has its id) are released. Runs at open; returns how
   * many holds it released.
   */
  async repair(now: number = Date.now()): Promise<{ readonly releasedHolds: number }> {
    return { releasedHolds: await releaseStaleHolds(this.#kv, this.#gate, this.#holdGrace, now) };
  }

  /** Check that the store answers, is the one opened, and takes a write, within the deadline. */
  probe(): Promise<StoreHealth> {
    return probeStore(this.#kv, this.#gate, this.description, this.#stamp);
  }

  /** Close the KV (once the calls it still runs are done: see `KvGate.close`). */
  close(): void {
    this.#gate.close(() => this.#kv.close());
  }

  /**
   * One atomic write: `build` adds its checks and mutations (or returns a
   * failure with nothing written), then `audit` is chained after the head of
   * `stream`'s audit chain in the same write. A commit that fails because the
   * head moved is built again; one that fails on `build`'s own checks is
   * built again too, and `build` then sees what changed. `free` (optional)
   * answers false at once when a retry cannot help. `input` names the input
   * the write appends, if any (the next append of its session checks it).
   */
  async #write<T>(
    what: string,
    stream: string,
    audit: readonly AuditEvent[],
    build: (operation: KvMutations) => Promise<T>,
    free?: () => Promise<boolean>,
    input?: WrittenInput,
    appended?: (records: LinkedText[]) => void,
  ): Promise<T> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const outcome = await this.#gate.run(what, async () => {
        const operation = new StagedWrite();
        const result = await build(operation);
        if (result !== true && result !== "finished") return { result };
        const known = this.#knownHeads.get(stream);
        const { records, head } = await addAudit(this.#kv, operation, stream, audit, known, input?.staged);
        // The input's only part, with its audit record when that joined it.
        const row = input?.staged?.row;
        if (row) operation.set(row.key, row.value);
        // Committed with the steps other requests staged meanwhile, each still whole or not at all.
        const versionstamp = await this.#committer.commit(operation);
        if (versionstamp !== null) {
          // The head this write set: the next write of this chain checks it without reading it back.
          if (head) this.#knownHeads.set(stream, { key: ["pab", "head", stream], value: head, versionstamp });
          // The input it appended: the session's next append checks it is still there without reading it.
          if (input) this.#inputs.wrote(input.session, input.seq, versionstamp);
          appended?.(records);
          return { result };
        }
        // Read the head again next time: another writer may have moved it.
        this.#knownHeads.delete(stream);
        if (input) this.#inputs.forget(input.session);
        if (free && !(await free())) return { result: false as T };
        return undefined;
      });
      if (outcome) return outcome.result;
      await backoff(attempt);
    }
    throw new StoreError(
      "ERR_STORE_WRITE",
      `Cannot ${what} in store "${this.description}": other writers kept changing it`,
    );
  }

  async #ledgerOf(record: ReservationRecord): Promise<string> {
    return sessionRecord(await this.#kv.get(["pab", "session", record.session]))?.ledger ?? record.session;
  }
}
