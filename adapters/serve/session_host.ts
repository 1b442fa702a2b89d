/**
 * Sessions behind `pab serve` and `pab hook`: each session has its own guard
 * (nothing one session read can vouch in another), rebuilt in any process from
 * the store, and every decision, ruling, reservation and effect goes to the
 * session's audit chain.
 *
 * @module
 */
import { fingerprintCall, type Label, PabError } from "../../core/mod.ts";
import {
  type ApproverRule,
  type ConfirmFunction,
  type Decision,
  type GuardOptions,
  makeToolCall,
  planEffects,
  type Policy,
  type Recovery,
  type ReserveResult,
  type Ruling,
} from "../../guard/mod.ts";
import type { AuditEvent, AuditRecord } from "../audit/mod.ts";
import type { PabStore, ReservationRecord } from "../store/mod.ts";
import { type HeldRuling, HostedSession } from "./hosted_session.ts";
import { RequestError } from "./request_error.ts";

/** A call as the API names it. */
export interface CallRequest {
  /** The tool. */
  readonly tool: string;
  /** Its arguments. */
  readonly args: Readonly<Record<string, unknown>>;
}

/** A ruling as the API returns it. */
export interface RulingInfo {
  /** The ruling's id: pass it to `propose` in `rulings`. */
  readonly id: string;
  /** Who gave it (`user` for a confirmation). */
  readonly approver: string;
  /** The tool of the call it approves. */
  readonly tool: string;
  /** The fingerprint of the one call it approves. */
  readonly fingerprint: string;
}

/** Options of a {@linkcode SessionHost}. */
export interface SessionHostOptions {
  /** How many sessions to keep in memory (the rest are rebuilt from the store on use; default 1000). */
  readonly cache?: number;
  /** The clock for audit times (default: the system clock). */
  readonly now?: () => Date;
  /** Further guard options for every session (casts, say); `effects` and `onEvent` are the host's. */
  readonly guard?: Omit<GuardOptions, "effects" | "onEvent" | "approvers">;
}

/**
 * Host sessions of one policy on one store.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { openStore } from "../store/mod.ts";
 * import { SessionHost } from "./session_host.ts";
 * const policy = parsePolicy("version: 1\ntools:\n  publish: {once: release.sent, output: trusted}\n", { source: "p.yaml" });
 * const host = new SessionHost(policy, await openStore(":memory:"));
 * const session = await host.create();
 * const first = await host.propose(session, { tool: "publish", args: {} });
 * assert.equal(first.status, "reserved");
 * assert.equal((await host.propose(session, { tool: "publish", args: {} })).status, "blocked");
 * host.store.close();
 * ```
 */
export class SessionHost {
  /** The policy every session enforces. */
  readonly policy: Policy;
  /** The store. */
  readonly store: PabStore;
  readonly #options: GuardOptions;
  readonly #sessions = new Map<string, HostedSession>();
  readonly #cache: number;
  readonly #now: () => Date;

  /** Host sessions of `policy`. Throws `TypeError` for a policy that needs labellers registered in code (casts). */
  constructor(policy: Policy, store: PabStore, options: SessionHostOptions = {}) {
    // Whoever may call the API speaks for the approvers; each ruling is still limited to its mandate.
    const approvers: Record<string, ApproverRule> = {};
    for (const name of Object.keys(policy.approvers)) approvers[name] = () => true;
    this.#options = { ...options.guard, approvers };
    this.policy = policy;
    this.store = store;
    this.#cache = options.cache ?? 1000;
    this.#now = options.now ?? (() => new Date());
    new HostedSession(policy, this.#options, store, { id: "probe", ledger: "probe", created: "" });
  }

  /** Make a session (its own ledger unless `ledger` names one to share) and return its id. */
  async create(options: { readonly id?: string; readonly ledger?: string } = {}): Promise<string> {
    const id = options.id ?? `s_${randomHex(12)}`;
    const record = { id, ledger: options.ledger ?? id, created: this.#now().toISOString() };
    // The session and the first event of its chain are one write.
    if (!(await this.store.createSession(record, this.#events(id, { kind: "session", ledger: record.ledger })))) {
      throw new RequestError(409, "ERR_SESSION_EXISTS", `Cannot make session "${id}": it exists`);
    }
    return id;
  }

  /** Whether a session exists. */
  async has(id: string): Promise<boolean> {
    return this.#sessions.has(id) || (await this.store.session(id)) !== undefined;
  }

  /** Record a system or user message (trusted). */
  message(id: string, role: "system" | "user", text: string): Promise<void> {
    return this.#with(id, async (session) => {
      await session.add({ kind: role, text }, () => this.#events(session, { kind: "message", role, text }));
    });
  }

  /**
   * Record a tool's output (or its error text) under the tool's label. With
   * `ran`, the tool ran without a reservation and finished: its effects are
   * committed too.
   */
  result(
    id: string,
    call: CallRequest & { readonly output: unknown; readonly error?: string; readonly ran?: boolean },
  ): Promise<void> {
    return this.#with(id, async (session) => {
      const output = call.error ?? call.output;
      const input = { kind: "result", tool: call.tool, args: call.args, output } as const;
      const toolCall = makeToolCall(call.tool, call.args);
      const keys = call.ran && call.error === undefined
        ? planEffects(this.policy, toolCall, session.effects.committed()).commit
        : [];
      const effect = { kind: "effect", reservation: null, tool: call.tool, effects: keys } as const;
      // The output, its effects and their audit events are one write.
      const commit = { ledger: session.record.ledger, keys, holder: `result:${toolCall.fingerprint}` };
      const events = () => this.#events(session, { ...input, error: call.error }, ...(keys.length ? [effect] : []));
      await session.add(input, events, keys.length ? commit : undefined);
    });
  }

  /** Gate 1 for one call, with no side effects but an audit event. */
  decide(id: string, call: CallRequest): Promise<Decision> {
    return this.#with(id, async (session) => {
      const decision = session.guard.decide(call.tool, call.args);
      await this.#audit(session, { kind: "decision", decision });
      return decision;
    });
  }

  /** The way to yes for a call. */
  plan(id: string, call: CallRequest): Promise<Recovery> {
    return this.#with(id, (session) => Promise.resolve(session.guard.planRecovery(call.tool, call.args)));
  }

  /**
   * Decide a call and, if allowed, reserve its effects (`guard.reserve()` on
   * the store's ledger): the caller then runs the tool and calls
   * {@linkcode SessionHost.commit}, in this process or any other one.
   */
  propose(
    id: string,
    call: CallRequest & {
      readonly accept?: boolean;
      readonly rulings?: readonly string[];
      /** The reservation's id (default: a random one). */
      readonly reservation?: string;
      /** Asked when the call needs the user's confirmation and no ruling of the user's was passed. */
      readonly confirm?: ConfirmFunction;
    },
  ): Promise<ReserveResult> {
    return this.#with(id, async (session) => {
      const toolCall = makeToolCall(call.tool, call.args);
      const held = (call.rulings ?? []).map((ruling) => heldRuling(session, ruling, toolCall.fingerprint));
      const rulings: Ruling[] = held.flatMap((entry) => entry.kind === "approver" ? [entry.ruling] : []);
      const confirmed = held.some((entry) => entry.kind === "user");
      const confirm = confirmed ? () => true : call.confirm;
      const reservationId = call.reservation ?? `r_${randomHex(12)}`;
      // The keys guard.reserve() takes, from the same committed snapshot it judges against.
      const plan = planEffects(this.policy, toolCall, session.effects.committed());
      const result = await session.guard.reserve(call.tool, call.args, {
        accept: call.accept === true,
        rulings,
        ...(confirm ? { confirm } : {}),
      });
      const decided = { kind: "decision", decision: result.decision, status: result.status } as const;
      if (result.status !== "reserved") {
        await this.#audit(session, decided);
        return result;
      }
      const holder = session.holder(result.reservation);
      const record: ReservationRecord = {
        id: reservationId,
        session: id,
        holder,
        tool: call.tool,
        args: call.args,
        fingerprint: toolCall.fingerprint,
        effects: plan.commit,
        keys: plan.reserve,
        checks: plan.releaseOnSuccess,
      };
      // The record (which replaces the keys' hold), the rulings spent and the audit events are one write.
      const saved = await this.store.saveReservation(record, {
        spend: held.map((entry) => entry.id),
        audit: this.#events(session, decided, {
          kind: "reservation",
          reservation: reservationId,
          holder,
          tool: call.tool,
          fingerprint: toolCall.fingerprint,
          effects: plan.reserve,
        }),
      });
      if (!saved) {
        // This copy's guard spent a ruling and holds the call: give the keys back and rebuild it from the store.
        session.stale = true;
        await session.effects.release(plan.reserve, holder);
        const spent = held.map((entry) => entry.id).join(", ");
        await this.#audit(session, decided, {
          kind: "release",
          reservation: reservationId,
          tool: call.tool,
          effects: plan.reserve,
          error: `a ruling (${spent}) was already spent`,
        });
        throw new RequestError(409, "ERR_RULING_SPENT", `Cannot use ruling "${spent}": it was already spent`);
      }
      session.reservations.set(reservationId, result.reservation);
      return { ...result, reservation: { ...result.reservation, id: reservationId } };
    });
  }

  /**
   * Finish a reserved call with its output (effects committed) or its error
   * (reservation released). The guard that reserved it completes it when it is
   * in this process; otherwise the store's record says which keys to commit or
   * release under which holder, and the output is recorded here. Either way
   * the store lets a reservation be finished once.
   */
  commit(
    id: string,
    done: { readonly reservation: string; readonly output?: unknown; readonly error?: string; readonly label?: Label },
  ): Promise<ReservationRecord> {
    return this.#with(id, async (session) => {
      const record = await this.store.reservation(id, done.reservation);
      const failed = done.error !== undefined;
      const label = done.label && !failed ? { label: done.label } : {};
      const output = failed ? done.error : done.output;
      const audit = record && this.#events(session, {
        kind: failed ? "release" : "effect",
        reservation: record.id,
        tool: record.tool,
        effects: failed ? record.keys : record.effects,
        ...(failed ? { error: done.error } : {}),
      });
      // The record's end, its keys, its output and its audit event are one write: it finishes whole or not at all.
      const finished = record && await session.appendVia((seq) =>
        this.store.finishReservation(id, record.id, {
          outcome: failed ? "release" : "commit",
          input: { seq, input: { kind: "result", tool: record.tool, args: record.args, output, ...label } },
          audit,
        })
      );
      if (!record || finished !== "finished") {
        throw new RequestError(
          404,
          "ERR_RESERVATION_UNKNOWN",
          `Cannot finish reservation "${done.reservation}": session "${id}" holds no such open reservation`,
        );
      }
      const pending = session.reservations.get(record.id);
      session.reservations.delete(record.id);
      if (pending && session.holder(pending) === record.holder) {
        // The store has it all; the guard that reserved the call completes it too (its writes repeat the store's).
        await session.guard.complete(pending, failed ? { error: String(done.error) } : { output, ...label });
      } else {
        // Reserved by another process (or an earlier copy of this session): the store finished it; record the output.
        session.guard.record(record.tool, output, { args: record.args, ...label });
      }
      return record;
    });
  }

  /** Grant a ruling on one exact call: an approver's (within its mandate) or the user's confirmation. */
  ruling(id: string, request: CallRequest & { readonly approver: string }): Promise<RulingInfo> {
    return this.#with(id, async (session) => {
      const { approver, tool, args } = request;
      const fingerprint = fingerprintCall(tool, args);
      if (approver === "user") {
        const decision = session.guard.decide(tool, args);
        if (!decision.gaps.some((gap) => gap.severity === "confirm")) {
          throw new RequestError(
            409,
            "ERR_RULING_REFUSED",
            `Cannot record the user's confirmation of ${tool}: the call has no gap a user may waive`,
          );
        }
      }
      const rulingId = `${approver}#${randomHex(6)}`;
      // The guard mints an approver's ruling here, or throws (ERR_RULING_REFUSED) and nothing is kept.
      await session.add(
        { kind: "ruling", id: rulingId, approver, tool, args },
        () => this.#events(session, { kind: "ruling", id: rulingId, approver, tool, fingerprint }),
      );
      return { id: rulingId, approver, tool, fingerprint };
    });
  }

  /** The session's audit chain. */
  async audit(id: string): Promise<AuditRecord[]> {
    await this.#session(id);
    return await this.store.audit(id);
  }

  async #with<T>(id: string, task: (session: HostedSession) => Promise<T>): Promise<T> {
    const session = await this.#session(id);
    return await session.run(async () => {
      try {
        await session.sync();
        const result = await task(session);
        await this.#audit(session);
        return result;
      } catch (error) {
        // What the guard did before the failure (a reservation given back, say) still goes to the chain.
        await this.#audit(session).catch(() => session.stale = true);
        // A refusal or a bad request changed nothing; anything else may have left this copy ahead of the store.
        session.stale ||= !(error instanceof RequestError) && !isRulingRefusal(error);
        throw error;
      } finally {
        // A stale copy (a failed write, or a ruling spent elsewhere) is rebuilt from the store.
        if (session.stale && this.#sessions.get(id) === session) this.#sessions.delete(id);
      }
    });
  }

  async #session(id: string): Promise<HostedSession> {
    const cached = this.#sessions.get(id);
    if (cached) return cached;
    const record = await this.store.session(id);
    if (!record) throw new RequestError(404, "ERR_SESSION_UNKNOWN", `Cannot find session "${id}": no such session`);
    const raced = this.#sessions.get(id);
    if (raced) return raced;
    const session = new HostedSession(this.policy, this.#options, this.store, record);
    this.#sessions.set(id, session);
    if (this.#sessions.size > this.#cache) {
      for (const [key, value] of this.#sessions) {
        if (!value.busy && key !== id) {
          this.#sessions.delete(key);
          break;
        }
      }
    }
    return session;
  }

  /** Append the guard's ledger events so far, then `events`, to the session's chain. */
  async #audit(session: HostedSession, ...events: Omit<AuditEvent, "at">[]): Promise<void> {
    for (const record of this.#events(session, ...events)) {
      await this.store.appendAudit(session.record.id, record);
    }
  }

  /** The guard's ledger events so far, then `events`, as audit events to write with a step. */
  #events(session: HostedSession | string, ...events: Omit<AuditEvent, "at">[]): AuditEvent[] {
    const at = this.#now().toISOString();
    const ledger = typeof session === "string" ? [] : session.takeEvents();
    return [
      ...ledger.map((event): AuditEvent => ({ kind: "ledger", at, event })),
      ...events.map((event) => ({ ...event, at }) as AuditEvent),
    ];
  }
}

function isRulingRefusal(error: unknown): boolean {
  return error instanceof PabError && error.code === "ERR_RULING_REFUSED";
}

function heldRuling(session: HostedSession, id: unknown, fingerprint: string): HeldRuling {
  const held = typeof id === "string" ? session.rulings.get(id) : undefined;
  if (!held) {
    throw new RequestError(
      404,
      "ERR_RULING_UNKNOWN",
      `Cannot use ruling ${JSON.stringify(id)}: session "${session.record.id}" has no such ruling`,
    );
  }
  const approves = held.kind === "user" ? held.fingerprint : held.ruling.fingerprint;
  if (approves !== fingerprint) {
    throw new RequestError(409, "ERR_RULING_MISMATCH", `Cannot use ruling "${held.id}": it approves another call`);
  }
  return held;
}

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
