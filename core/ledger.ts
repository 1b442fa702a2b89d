/**
 * The Ledger: an append-only record of finished actions and of every event.
 *
 * `committed` holds the effects of actions that really finished (what
 * `requires_prior` / `requires_no_prior` rules check), kept in an
 * {@linkcode EffectStore}; `log` holds every event, blocked attempts
 * included, for auditors, and each event is also passed to `onEvent` as it
 * happens. A branch and its children share one Ledger.
 *
 * @module
 */
import { type EffectStore, MemoryEffectStore } from "./effect_store.ts";

/** What happened. */
export type LedgerEventKind =
  | "dispatch"
  | "blocked"
  | "merge"
  | "ruling-minted"
  | "ruling-spent"
  | "reserved"
  | "committed"
  | "released"
  | "tool-failed"
  | "branch-opened"
  | "note";

/** One line of the audit log. */
export interface LedgerEvent {
  /** Position in the log, from 0. */
  readonly seq: number;
  /** What happened. */
  readonly kind: LedgerEventKind;
  /** The branch it happened in, such as `main` or `main/child-1`. */
  readonly branch: string;
  /** The tool involved, if any. */
  readonly tool?: string;
  /** The fingerprint of the call involved, if any. */
  readonly fingerprint?: string;
  /** Event details (gaps, approvers, schema, error). */
  readonly detail: Readonly<Record<string, unknown>>;
}

/**
 * An append-only ledger. Nothing is ever removed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Ledger } from "./ledger.ts";
 * const seen: string[] = [];
 * const ledger = new Ledger({ onEvent: (event) => seen.push(event.kind) });
 * ledger.commit(["release.sent"]);
 * ledger.record("dispatch", "main", { tool: "send_release" });
 * assert.equal(ledger.has("release.sent"), true);
 * assert.equal(ledger.has("legal.precleared"), false);
 * assert.deepEqual(seen, ["dispatch"]);
 * ```
 */
export class Ledger {
  readonly #store: EffectStore;
  readonly #onEvent: ((event: LedgerEvent) => void) | undefined;
  #log: LedgerEvent[] = [];

  /** Make a ledger over an effect store (default: in memory) that tells `onEvent` about every event. */
  constructor(options: { readonly store?: EffectStore; readonly onEvent?: (event: LedgerEvent) => void } = {}) {
    this.#store = options.store ?? new MemoryEffectStore();
    this.#onEvent = options.onEvent;
  }

  /** The effect store behind `committed`. */
  get store(): EffectStore {
    return this.#store;
  }

  /** Append an event to the audit log and return it. */
  record(kind: LedgerEventKind, branch: string, entry: {
    tool?: string;
    fingerprint?: string;
    detail?: Record<string, unknown>;
  } = {}): LedgerEvent {
    const event: LedgerEvent = Object.freeze({
      seq: this.#log.length,
      kind,
      branch,
      ...(entry.tool === undefined ? {} : { tool: entry.tool }),
      ...(entry.fingerprint === undefined ? {} : { fingerprint: entry.fingerprint }),
      detail: Object.freeze({ ...(entry.detail ?? {}) }),
    });
    this.#log.push(event);
    if (this.#onEvent) {
      try {
        this.#onEvent(event);
      } catch {
        // A listener that throws must not undo or hide what happened; the event stays in the log.
      }
    }
    return event;
  }

  /** Write the effects of an action that really finished (with a synchronous store). */
  commit(effects: readonly string[], holder = "ledger"): void {
    void this.#store.commit(effects, holder);
  }

  /** Whether an action with this effect has finished. */
  has(effect: string): boolean {
    return this.#store.committed().has(effect);
  }

  /** The committed effects, sorted. */
  get committed(): readonly string[] {
    return Object.freeze([...this.#store.committed()].sort());
  }

  /** Every event, in order. */
  get log(): readonly LedgerEvent[] {
    return Object.freeze([...this.#log]);
  }
}
