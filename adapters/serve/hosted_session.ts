/**
 * One session as a process holds it: a guard rebuilt by replaying the
 * session's inputs from the store, kept in step with inputs other processes
 * append, and a lock so its requests run one at a time in this process. The
 * guard reserves and commits effects in the store's ledger (under holders
 * scoped to this copy), and tells the session about every ledger event it
 * makes, for the audit chain.
 *
 * @module
 */
import type { EffectStore, LedgerEvent } from "../../core/mod.ts";
import { Guard, type GuardOptions, type Policy, type Reservation, type Ruling } from "../../guard/mod.ts";
import type { AuditEvent } from "../audit/mod.ts";
import type { EffectCommit, LedgerEffects, PabStore, SessionInput, SessionRecord } from "../store/mod.ts";
import { StoreError } from "../store/mod.ts";
import { randomHex } from "./random_hex.ts";

/**
 * The tool an output is recorded as when the session had no room for it (see `refuseUnrecordedOutput`): no policy
 * names it, so it is an unlabelled tool's output, the strictest label.
 */
export const UNRECORDED_TOOL = "(pab: a tool output there was no room to record)";

/**
 * A ruling this session holds, under the id the API gave it: the guard minted
 * it (an approver's, or the user's confirmation) bound to the exact gaps and
 * label it was shown with.
 */
export interface HeldRuling {
  /** The id the API gave it (`manager#5f2c...`). */
  readonly id: string;
  /** The guard's ruling. */
  readonly ruling: Ruling;
}

const ATTEMPTS = 200;

/**
 * A session's guard, in step with the store.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { openStore } from "../store/mod.ts";
 * import { HostedSession } from "./hosted_session.ts";
 * const store = await openStore(":memory:");
 * const record = { id: "s_1", ledger: "s_1", created: "2026-11-30T15:00:00.000Z" };
 * await store.createSession(record);
 * const policy = parsePolicy("version: 1\ntools:\n  read_inbox: {output: untrusted}\n", { source: "p.yaml" });
 * const session = new HostedSession(policy, {}, store, record);
 * await session.run(() => session.add({ kind: "user", text: "hello" }));
 * const again = new HostedSession(policy, {}, store, record);
 * await again.run(() => again.sync());
 * assert.equal(again.guard.sources.length, 1);
 * store.close();
 * ```
 */
export class HostedSession {
  /** The stored session. */
  readonly record: SessionRecord;
  /** Its guard. */
  readonly guard: Guard;
  /** Its ledger's effects. */
  readonly effects: LedgerEffects;
  /** Set when this copy may differ from the store's inputs: the host rebuilds it before the next request. */
  stale = false;
  /** Rulings granted in this session, by the API's id. */
  readonly rulings = new Map<string, HeldRuling>();
  /** The API's id of each ruling, by the guard's id (decisions name the guard's). */
  readonly apiRulingIds = new Map<string, string>();
  /** Characters of text this session recorded (messages, and tool outputs as JSON). */
  chars = 0;
  /** Whether it recorded that it read a tool output it had no room for (see `refuseUnrecordedOutput`). */
  unrecorded = false;
  /** Calls this copy's guard reserved and has not completed, by the API's reservation id. */
  readonly reservations = new Map<string, Reservation>();
  /** Prefix of the holders of this copy's reservations in the store (guard ids such as `main#call-1` repeat). */
  readonly scope: string;
  readonly #store: PabStore;
  #applied = 0;
  #queue: Promise<unknown> = Promise.resolve();
  #busy = 0;
  #events: LedgerEvent[] = [];
  #replaying = false;
  #synced = false;
  readonly #readEffects: boolean;

  /**
   * Hold `record` with a fresh guard; call {@linkcode HostedSession.sync} to catch up. `readEffects: false` (for a
   * caller that knows no decision depends on the ledger's committed effects) skips reading them again on each sync.
   */
  constructor(policy: Policy, options: GuardOptions, store: PabStore, record: SessionRecord, readEffects = true) {
    this.record = record;
    this.#readEffects = readEffects;
    this.scope = `${record.id}/${randomHex(6)}`;
    this.effects = store.effects(record.ledger);
    this.guard = new Guard(policy, {
      ...options,
      effects: scopedEffects(this.effects, this.scope),
      onEvent: (event) => {
        // Replayed inputs happened before (their events are in the chain already); only new events are kept.
        if (!this.#replaying) this.#events.push(event);
      },
    });
    this.#store = store;
  }

  /** The holder a reservation of this copy's guard has in the store. */
  holder(reservation: Reservation): string {
    return `${this.scope}/${reservation.id}`;
  }

  /** The guard's ledger events since the last call, in order (for the audit chain). */
  takeEvents(): LedgerEvent[] {
    const events = this.#events;
    this.#events = [];
    return events;
  }

  /** Whether the guard made ledger events not taken yet. */
  get eventsWaiting(): boolean {
    return this.#events.length > 0;
  }

  /** Whether a request is running or waiting. */
  get busy(): boolean {
    return this.#busy > 0;
  }

  /** How many requests are running or waiting. */
  get waiting(): number {
    return this.#busy;
  }

  /** Run `task` after every earlier task of this session in this process. */
  run<T>(task: () => Promise<T>): Promise<T> {
    this.#busy++;
    const next = this.#queue.catch(() => {}).then(task);
    this.#queue = next;
    const done = () => void this.#busy--;
    next.then(done, done);
    return next;
  }

  /** Apply the inputs other processes appended, and read the committed effects again (unless none is judged). */
  async sync(): Promise<void> {
    // Both reads at once; the guard judges against this snapshot of the effects (its effect store is the store's ledger).
    const inputs = this.#readEffects
      ? (await Promise.all([this.#store.inputs(this.record.id, this.#applied), this.effects.refresh()]))[0]
      : await this.#store.inputs(this.record.id, this.#applied);
    this.#replay(inputs);
    this.#applied += inputs.length;
    this.#synced = true;
  }

  /** Whether this copy has read the store at least once. */
  get synced(): boolean {
    return this.#synced;
  }

  /**
   * Apply an input here, then append it to the store after whatever others
   * appended meanwhile, with its audit events (made once it is applied, so
   * they follow the guard's own events) in the same write. An
   * approver's ruling the guard refuses throws its `RulingError` and is not
   * appended.
   */
  async add(input: SessionInput, audit: () => readonly AuditEvent[] = () => [], commit?: EffectCommit): Promise<void> {
    this.#apply(input, true);
    await this.append(input, audit(), commit);
  }

  /** Append an input already applied here (after whatever others appended meanwhile), with its audit events and effects. */
  append(input: SessionInput, audit: readonly AuditEvent[] = [], commit?: EffectCommit): Promise<void> {
    return this.appendVia(async (seq) =>
      await this.#store.appendInput(this.record.id, seq, input, audit, commit) || "moved"
    ).then(() => {});
  }

  /**
   * Append one input already applied here through `write`, given the next
   * position: `"moved"` (another writer took it) catches up and tries again;
   * any other answer is returned, and all but `"unknown"` count the input as appended.
   */
  async appendVia<T>(write: (seq: number) => Promise<T | "moved">): Promise<T> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const result = await write(this.#applied);
      if (result !== "moved") {
        if (result !== "unknown") this.#applied++;
        return result;
      }
      const others = await this.#store.inputs(this.record.id, this.#applied);
      this.#replay(others);
      this.#applied += others.length;
    }
    throw new StoreError("ERR_STORE_WRITE", `Cannot append to session "${this.record.id}": other writers kept going`);
  }

  /**
   * Answer (decide) and write the answer's audit events. `unread`: this copy answers as it is, without reading the
   * store first, and the events are written only while the store holds no input past the ones it applied (in the same
   * write); when another writer appended one meanwhile, nothing is written, the copy catches up and answers again.
   * Either way the answer returned was made after every input the store held when its events were written. Only for
   * answers that depend on the inputs, not on the ledger's effects (which an unread copy does not read again).
   */
  async answer<T>(
    answer: (session: HostedSession) => T,
    events: (session: HostedSession, answered: T) => readonly AuditEvent[],
    unread: boolean,
  ): Promise<T> {
    const id = this.record.id;
    // A refused write writes nothing, and the ledger events its attempt took would be lost: with any waiting (none for a
    // policy without ledger rules, whose guard makes none), read first and write unchecked, as the other answers do.
    if (!unread || this.eventsWaiting) {
      if (unread) await this.sync();
      const answered = answer(this);
      await this.#store.writeAuditEvents(id, events(this, answered));
      return answered;
    }
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const answered = answer(this);
      if (await this.#store.writeAuditEvents(id, events(this, answered), { expectInputs: this.#applied })) {
        return answered;
      }
      await this.sync();
    }
    throw new StoreError("ERR_STORE_WRITE", `Cannot answer in session "${id}": other writers kept going (retry)`);
  }

  #replay(inputs: readonly SessionInput[]): void {
    this.#replaying = true;
    try {
      for (const input of inputs) this.#apply(input);
    } finally {
      this.#replaying = false;
    }
  }

  #apply(input: SessionInput, live = false): void {
    switch (input.kind) {
      case "system":
        this.chars += input.text.length;
        return this.guard.system(input.text);
      case "user":
        this.chars += input.text.length;
        return this.guard.user(input.text);
      case "result":
        this.chars += textSize(input.output);
        this.unrecorded ||= input.tool === UNRECORDED_TOOL;
        return this.guard.record(input.tool, input.output, {
          args: input.args,
          ...(input.label ? { label: input.label } : {}),
        });
      case "ruling":
        try {
          // The guard binds the ruling (the user's confirmation too) to the gaps and label it is shown now.
          const ruling = this.guard.requestRuling(input.approver, input.tool, input.args);
          this.rulings.set(input.id, { id: input.id, ruling });
          this.apiRulingIds.set(ruling.id, input.id);
        } catch (error) {
          if (live) throw error;
          // The world moved (an effect was committed since): the ruling no longer applies here.
        }
    }
  }
}

/**
 * The characters a recorded output counts for: a string's length, or the
 * length of the JSON of any other value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { textSize } from "./hosted_session.ts";
 * assert.equal(textSize("hello"), 5);
 * assert.equal(textSize({ a: 1 }), 7);
 * ```
 */
export function textSize(output: unknown): number {
  if (typeof output === "string") return output.length;
  try {
    return JSON.stringify(output)?.length ?? 0;
  } catch {
    return 0;
  }
}

/**
 * Whether a committed effect can change what a guard of `policy` decides, when its approvers say yes to whatever their
 * mandate covers (as `pab serve`'s do): only a tool that requires an effect first (`requires_prior`) or requires its
 * absence (`requires_no_prior`, `once`) looks at them. Reservations are checked by the store whatever this says.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { judgesEffects } from "./hosted_session.ts";
 * assert.equal(judgesEffects(parsePolicy("version: 1\ntools:\n  publish: {once: release.sent}\n")), true);
 * assert.equal(judgesEffects(parsePolicy("version: 1\ntools:\n  read_inbox: {output: untrusted}\n")), false);
 * ```
 */
export function judgesEffects(policy: Policy): boolean {
  return Object.values(policy.tools).some((tool) => tool.requiresPrior.length > 0 || tool.requiresNoPrior.length > 0);
}

/** The store's effects with every holder prefixed by `scope`. */
function scopedEffects(effects: EffectStore, scope: string): EffectStore {
  return {
    reserve: (keys, holder) => effects.reserve(keys, `${scope}/${holder}`),
    commit: (keys, holder) => effects.commit(keys, `${scope}/${holder}`),
    release: (keys, holder) => effects.release(keys, `${scope}/${holder}`),
    committed: () => effects.committed(),
  };
}
