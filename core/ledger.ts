/**
 * The Ledger: an append-only record of finished actions and of every event.
 *
 * `committed` holds the effects of actions that really finished (what
 * `requires_prior` / `requires_no_prior` rules check); `log` holds every event,
 * blocked attempts included, for auditors. A branch and its children share one
 * Ledger.
 *
 * @module
 */

/** What happened. */
export type LedgerEventKind =
  | "dispatch"
  | "blocked"
  | "merge"
  | "ruling-spent"
  | "tool-failed"
  | "branch-opened";

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
 * import { Ledger } from "./ledger.ts";
 * const ledger = new Ledger();
 * ledger.commit(["release.sent"]);
 * console.log(ledger.has("release.sent"), ledger.has("legal.precleared")); // true false
 * ```
 */
export class Ledger {
  #committed = new Set<string>();
  #log: LedgerEvent[] = [];

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
    return event;
  }

  /** Write the effects of an action that really finished. */
  commit(effects: readonly string[]): void {
    for (const effect of effects) this.#committed.add(effect);
  }

  /** Whether an action with this effect has finished. */
  has(effect: string): boolean {
    return this.#committed.has(effect);
  }

  /** The committed effects, sorted. */
  get committed(): readonly string[] {
    return Object.freeze([...this.#committed].sort());
  }

  /** Every event, in order. */
  get log(): readonly LedgerEvent[] {
    return Object.freeze([...this.#log]);
  }
}
