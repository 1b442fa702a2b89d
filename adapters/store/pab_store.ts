/**
 * The one store interface for pab's durable state: sessions and their
 * recorded inputs (so any process can rebuild a session's guard), ledger
 * effects with atomic reservations, rulings spent once, reservations, and the
 * audit chains.
 *
 * @module
 */
import type { EffectStore, Label } from "../../core/mod.ts";
import type { AuditEvent, AuditRecord } from "../audit/mod.ts";
import type { StoreErrorCode } from "./store_error.ts";

/** A session as stored. */
export interface SessionRecord {
  /** The session's id, such as `s_4f...`. */
  readonly id: string;
  /** The ledger it writes effects to (its own id unless sessions share a ledger). */
  readonly ledger: string;
  /** When it was made (ISO 8601). */
  readonly created: string;
}

/** One input of a session, replayed in order to rebuild its guard. */
export type SessionInput =
  /** A system or user message (trusted). */
  | { readonly kind: "system" | "user"; readonly text: string }
  /** A tool's output (or its error text), recorded under the tool's label. */
  | {
    readonly kind: "result";
    readonly tool: string;
    readonly args: Readonly<Record<string, unknown>>;
    readonly output: unknown;
    readonly label?: Label;
  }
  /** A ruling granted on one exact call (approver `user` = the user's confirmation). */
  | {
    readonly kind: "ruling";
    readonly id: string;
    readonly approver: string;
    readonly tool: string;
    readonly args: Readonly<Record<string, unknown>>;
  };

/**
 * A reserved call, waiting for its output. It is durable so that any process
 * can finish it: the one that reserved it (through its guard) or another one
 * (straight in the store, with these keys and this holder).
 */
export interface ReservationRecord {
  /** The reservation's id as the API names it (such as `r_...` or the hook's `tu_...`). */
  readonly id: string;
  /** The session that made it. */
  readonly session: string;
  /** Who holds its effect keys in the store (the reserving process's scope and the guard's reservation id). */
  readonly holder: string;
  /** The tool. */
  readonly tool: string;
  /** The exact arguments. */
  readonly args: Readonly<Record<string, unknown>>;
  /** The call's fingerprint. */
  readonly fingerprint: string;
  /** Every effect the call writes when it finishes (`planEffects().commit`). */
  readonly effects: readonly string[];
  /** The effects reserved now (`planEffects().reserve`); a failed call releases them. */
  readonly keys: readonly string[];
  /** The reserved keys the call only checked (`planEffects().releaseOnSuccess`); released when it finishes. */
  readonly checks: readonly string[];
}

/** Effects of one ledger: an {@linkcode EffectStore} whose snapshot is refreshed from the store. */
export interface LedgerEffects extends EffectStore {
  /** Read the committed effects again (other processes may have written some). */
  refresh(): Promise<void>;
}

/** Effects committed with an input, in the same write (a tool that ran without a reservation). */
export interface EffectCommit {
  /** The ledger. */
  readonly ledger: string;
  /** The keys to commit. */
  readonly keys: readonly string[];
  /** Who commits them. */
  readonly holder: string;
}

/** What {@linkcode PabStore.finishReservation} does with a reservation's keys. */
export interface ReservationFinish {
  /** `commit`: the call ran (its effects committed, its checked keys released); `release`: it failed (keys given back). */
  readonly outcome: "commit" | "release";
  /** The call's output to append as an input of the session, at position `seq`, in the same write (the last audit event gets `input: seq`). */
  readonly input?: { readonly seq: number; readonly input: SessionInput };
  /** Events to append to the session's audit chain in the same write. */
  readonly audit?: readonly AuditEvent[];
}

/** How {@linkcode PabStore.finishReservation} went. */
export type FinishResult =
  /** Finished: keys, input and audit events written at once. */
  | "finished"
  /** No open reservation by that id (never made, or finished already): nothing written. */
  | "unknown"
  /** The input position was taken by another writer: nothing written; catch up and retry. */
  | "moved";

/** The store's health, from {@linkcode PabStore.probe}. */
export type StoreHealth =
  | { readonly ok: true; readonly description: string; readonly latencyMs: number }
  | {
    readonly ok: false;
    readonly description: string;
    /** The fault's {@linkcode StoreErrorCode}. */
    readonly code: StoreErrorCode;
    /** What is wrong, where, and how to fix it. */
    readonly message: string;
    /** Seconds to wait before retrying, or null (an operator must act). */
    readonly retryAfter: number | null;
  };

/** What an audit write checks of its session's inputs: that none is at position `expectInputs` (the next one). */
export interface InputsCheck {
  /** How many inputs the session may hold: the write fails when it holds more. */
  readonly expectInputs: number;
}

/**
 * pab's durable state. Every method is safe to call from many processes at
 * once, and every logical step is one atomic write: an input with its audit
 * events, a reservation record with its rulings spent and its audit events
 * (its keys were held by {@linkcode LedgerEffects.reserve}), a finished
 * reservation with its effects, its output and its audit events. Every
 * method rejects with a {@linkcode StoreError} only, within the store's
 * deadline.
 */
export interface PabStore {
  /** A short description for messages (`memory`, a path, a URL without credentials). */
  readonly description: string;
  /** Save a new session (and its first audit events, in the same write); false if the id is taken. */
  createSession(record: SessionRecord, audit?: readonly AuditEvent[]): Promise<boolean>;
  /** A session, or undefined. */
  session(id: string): Promise<SessionRecord | undefined>;
  /**
   * Append an input at position `seq`, with its audit events in the same
   * write (the last one gets `input: seq`, naming the input it records),
   * and `commit`'s effects; false (nothing written) if another writer took
   * that position first.
   */
  appendInput(
    session: string,
    seq: number,
    input: SessionInput,
    audit?: readonly AuditEvent[],
    commit?: EffectCommit,
  ): Promise<boolean>;
  /** The inputs of a session from position `from` on, in order. */
  inputs(session: string, from: number): Promise<SessionInput[]>;
  /** The effects of a ledger. */
  effects(ledger: string): LedgerEffects;
  /**
   * Keep a reservation until it is finished: in one write, check that its
   * holder still holds its keys, turn their hold into this record, spend
   * the rulings in `spend` and append `audit`. False (nothing written) if one
   * of the rulings was spent already; `ERR_STORE_WRITE` if the keys are no
   * longer held (a repair released them).
   */
  saveReservation(
    record: ReservationRecord,
    options?: { readonly spend?: readonly string[]; readonly audit?: readonly AuditEvent[] },
  ): Promise<boolean>;
  /** A reservation that is not finished yet, or undefined. */
  reservation(session: string, id: string): Promise<ReservationRecord | undefined>;
  /**
   * Every reservation of a session that is not finished yet: a client that
   * lost the answer to its `propose` (a crash, a timeout) finds its id here,
   * then finishes or abandons it.
   */
  openReservations(session: string): Promise<ReservationRecord[]>;
  /**
   * Finish a reservation in one write: delete its record, commit or release
   * its keys under its holder, append its output as an input and its audit
   * events. Whoever knows the id may finish it, once.
   */
  finishReservation(session: string, id: string, finish: ReservationFinish): Promise<FinishResult>;
  /** Spend a ruling; false if it was already spent. */
  spendRuling(session: string, id: string): Promise<boolean>;
  /** Append an event to a chain (atomically after its current head) and return the record. */
  appendAudit(stream: string, event: AuditEvent): Promise<AuditRecord>;
  /** Append events to a chain in one write (atomically after its current head) and return the records. */
  appendAuditEvents(stream: string, events: readonly AuditEvent[]): Promise<AuditRecord[]>;
  /**
   * Append events to a chain as {@linkcode PabStore.appendAuditEvents} does (one write, atomically after its current
   * head), without reading the records back: for a writer that does not use them, such as `pab serve`.
   */
  writeAuditEvents(stream: string, events: readonly AuditEvent[]): Promise<void>;
  /**
   * Write them only while session `stream` has no input at position `check.expectInputs` (none was appended after
   * the inputs a writer judged from), in the same write: false, and nothing written, when one was.
   */
  writeAuditEvents(stream: string, events: readonly AuditEvent[], check: InputsCheck): Promise<boolean>;
  /**
   * Drop what a deleted or expired session recorded: its inputs, its spent rulings, and its record unless it has
   * open reservations. Its audit chain stays (evidence), and so do its ledger's effects and its open reservations
   * (their keys stay held: an effect whose call may have run is never given back).
   */
  deleteSession(id: string): Promise<void>;
  /** Every record of one chain, or of every chain when `stream` is undefined, in order. */
  audit(stream?: string): Promise<AuditRecord[]>;
  /** The head each chain's writer recorded (`seq` and `hash` of its last record), by chain. */
  heads(): Promise<Map<string, { readonly seq: number; readonly hash: string }>>;
  /** The id of every session the store keeps (a deleted one's is gone, its chain stays), for `audit verify`. */
  sessionIds(): Promise<string[]>;
  /** Check that the store answers, is the one opened, and can be written (a tiny write), within the deadline. */
  probe(): Promise<StoreHealth>;
  /** Close the store. */
  close(): void;
}
