/**
 * Sessions behind `pab serve` and `pab hook`: each session has its own guard
 * (nothing one session read can vouch in another), rebuilt in any process from
 * the store, and every decision, ruling, reservation and effect goes to the
 * session's audit chain.
 *
 * @module
 */
import { fingerprintCall, type Label } from "../../core/mod.ts";
import {
  type ApproverRule,
  type ConfirmFunction,
  type Decision,
  type GuardOptions,
  makeToolCall,
  planEffects,
  type Policy,
  type Recovery,
  ReservationError,
  type ReserveResult,
  type Ruling,
} from "../../guard/mod.ts";
import type { AuditEvent, AuditRecord } from "../audit/mod.ts";
import type { PabStore, ReservationRecord, SessionInput } from "../store/mod.ts";
import { resultEffects } from "./result_effects.ts";
import { HostedSession, judgesEffects, textSize, UNRECORDED_TOOL } from "./hosted_session.ts";
import { randomHex } from "./random_hex.ts";
import { apiDecision, assertShown, heldRuling, isRulingRefusal, type RulingInfo } from "./session_rulings.ts";
import { LiveSessions } from "./live_sessions.ts";
import {
  assertRoom,
  authorizeSession,
  createSession,
  dropInputs,
  expireIdle,
  type Lifecycle,
  randomSessionId,
  refuseUnrecordedOutput,
  unknownSession,
} from "./session_lifecycle.ts";
import { RequestError } from "./request_error.ts";
import type { CredentialedSession } from "./session_credential.ts";
import { type ServeLimits, serveLimits } from "./serve_limits.ts";
import type { CallRequest, SessionHostOptions } from "./session_host_options.ts";

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
  /** The bounds it keeps. */
  readonly limits: ServeLimits;
  readonly #options: GuardOptions;
  readonly #live: LiveSessions;
  readonly #lifecycle: Lifecycle;
  readonly #now: () => Date;
  readonly #readEffects: boolean;

  /** Host sessions of `policy`. Throws `TypeError` for a policy that needs labellers registered in code (casts). */
  constructor(policy: Policy, store: PabStore, options: SessionHostOptions = {}) {
    // Whoever may call the API speaks for the approvers; each ruling is still limited to its mandate.
    const approvers: Record<string, ApproverRule> = {};
    for (const name of Object.keys(policy.approvers)) approvers[name] = () => true;
    this.#options = { ...options.guard, approvers };
    this.policy = policy;
    this.store = store;
    this.#readEffects = judgesEffects(policy);
    this.#now = options.now ?? (() => new Date());
    this.limits = serveLimits(options.limits);
    this.#live = new LiveSessions(this.limits, () => this.#now().getTime(), options.cache ?? 10_000, options.tally);
    const events = (id: string, event: Omit<AuditEvent, "at">) => this.#events(id, event);
    const newId = options.sessionIds ?? randomSessionId;
    this.#lifecycle = { store, live: this.#live, limits: this.limits, now: this.#now, events, newId };
    new HostedSession(policy, this.#options, store, { id: "probe", ledger: "probe", created: "" });
  }

  /**
   * Make a session (its own ledger unless `ledger` names one to share) and
   * return its id. `credential` is the digest of the token the API returned
   * for it (see `mintCredential`). Throws `ERR_SESSION_LIMIT` (429) when
   * `limits.maxSessions` sessions live (counted by the `tally` option).
   */
  create(
    options: { readonly id?: string; readonly ledger?: string; readonly credential?: string } = {},
  ): Promise<string> {
    expireIdle(this.#lifecycle);
    return createSession(this.#lifecycle, options);
  }

  /** End the sessions idle past the limit now (each call on the host does it too). */
  readonly expireIdle = (): void => expireIdle(this.#lifecycle);

  /** Whether a session exists (and was not deleted or expired in this process). */
  async has(id: string): Promise<boolean> {
    if (this.#live.ended(id)) return false;
    return this.#live.held(id) !== undefined || (await this.store.session(id)) !== undefined;
  }

  /** Check `token` against the session's credential (403 `ERR_SESSION_CREDENTIAL`) and return its ledger. */
  authorize(id: string, token: string | null): Promise<string> {
    return authorizeSession(this.#lifecycle, id, token);
  }

  /** End a session here at once (later calls: 404); the store drops its inputs if it can; its audit chain stays. */
  async delete(id: string, why: "deleted" | "expired" = "deleted"): Promise<void> {
    const session = await this.#session(id);
    await session.run(async () => {
      this.#live.end(id, why);
      await this.#audit(session, { kind: "session", ended: why });
      await dropInputs(this.store, id);
    });
  }

  /** Record a system or user message (trusted). */
  message(id: string, role: "system" | "user", text: string): Promise<void> {
    return this.#with(id, async (session) => {
      assertRoom(session, this.limits.sessionChars, text.length);
      await session.add({ kind: role, text }, () => this.#events(session, { kind: "message", role, text }));
    }, false);
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
      if (call.tool === UNRECORDED_TOOL && session.unrecorded) return; // once is enough: it is the strictest label
      const output = call.error ?? call.output;
      const unseen = (input: SessionInput) => session.add(input, () => this.#events(session, input));
      await refuseUnrecordedOutput(session, this.limits.sessionChars, textSize(output), unseen);
      const input = { kind: "result", tool: call.tool, args: call.args, output } as const;
      const { keys, commit } = resultEffects(this.policy, session.record.ledger, call, session.effects);
      const effect = { kind: "effect", reservation: null, tool: call.tool, effects: keys } as const;
      // The output, its effects and their audit events are one write.
      const events = () => this.#events(session, { ...input, error: call.error }, ...(keys.length ? [effect] : []));
      await session.add(input, events, commit);
    }, call.ran === true);
  }

  /** Gate 1 for one call, with no side effects but an audit event (see `HostedSession.answer` for what it reads). */
  decide(id: string, call: CallRequest): Promise<Decision> {
    const decide = (session: HostedSession) => session.guard.decide(call.tool, call.args);
    const events = (session: HostedSession, decision: Decision) =>
      this.#events(session, { kind: "decision", decision });
    return this.#with(id, (session) => session.answer(decide, events, !this.#readEffects), this.#readEffects);
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
      assertRoom(session, this.limits.sessionChars, 0);
      const toolCall = makeToolCall(call.tool, call.args);
      const held = (call.rulings ?? []).map((ruling) => heldRuling(session, ruling, toolCall.fingerprint));
      const rulings: Ruling[] = held.map((entry) => entry.ruling);
      const confirm = call.confirm;
      const reservationId = call.reservation ?? `r_${randomHex(12)}`;
      // The keys guard.reserve() takes, from the same committed snapshot it judges against.
      const plan = planEffects(this.policy, toolCall, session.effects.committed());
      const result = await session.guard.reserve(call.tool, call.args, {
        accept: call.accept === true,
        rulings,
        ...(confirm ? { confirm } : {}),
      });
      const decision = apiDecision(result.decision, session);
      const decided = { kind: "decision", decision, status: result.status } as const;
      if (result.status !== "reserved") {
        await this.#audit(session, decided);
        return { ...result, decision };
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
        throw new RequestError("ERR_RULING_SPENT", `Cannot use ruling "${spent}": it was already spent`);
      }
      session.reservations.set(reservationId, result.reservation);
      return { ...result, decision, reservation: { ...result.reservation, id: reservationId } };
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
        throw new ReservationError(
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
  ruling(
    id: string,
    request: CallRequest & { readonly approver: string; readonly shown?: string },
  ): Promise<RulingInfo> {
    return this.#with(id, async (session) => {
      const { approver, tool, args } = request;
      const fingerprint = fingerprintCall(tool, args);
      if (approver === "user") assertShown(session.guard.decide(tool, args), request.shown);
      const rulingId = `${approver}#${randomHex(6)}`;
      // The guard mints the ruling here (the user's confirmation too), bound to the gaps and label the call has now,
      // or throws (ERR_RULING_REFUSED) and nothing is kept.
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

  /**
   * Run `task` on the session in its turn, after reading what other processes wrote; a task that only records or
   * checks its write (`judges: false`) skips the read once the copy has read the store (both catch up with others).
   */
  async #with<T>(id: string, task: (session: HostedSession) => Promise<T>, judges = true): Promise<T> {
    const session = await this.#session(id);
    if (session.waiting >= this.limits.sessionQueue) {
      throw new RequestError(
        "ERR_SESSION_BUSY",
        `Cannot serve session "${id}" now: ${session.waiting} requests wait for it; retry later`,
      );
    }
    return await session.run(async () => {
      const before = session.chars;
      try {
        if (this.#live.ended(id)) throw unknownSession(id, this.#live.ended(id));
        if (judges || !session.synced) await session.sync();
        const result = await task(session);
        // The guard's events not written with the step's own write (none, most often) follow it.
        if (session.eventsWaiting) await this.#audit(session);
        return result;
      } catch (error) {
        // What the guard did before the failure (a reservation given back, say) still goes to the chain.
        if (session.eventsWaiting) await this.#audit(session).catch(() => session.stale = true);
        // A refusal or a bad request changed nothing; anything else may have left this copy ahead of the store.
        session.stale ||= !(error instanceof RequestError) && !isRulingRefusal(error);
        throw error;
      } finally {
        this.#live.touch(id);
        // A stale copy (a failed write, or a ruling spent elsewhere) is rebuilt from the store.
        if (session.stale) this.#live.drop(id, session);
        else this.#live.grew(session, session.chars - before);
      }
    });
  }

  async #session(id: string): Promise<HostedSession> {
    expireIdle(this.#lifecycle);
    const ended = this.#live.ended(id);
    if (ended) throw unknownSession(id, ended);
    const cached = this.#live.held(id);
    if (cached) return cached;
    const record = await this.store.session(id);
    if (!record) throw unknownSession(id);
    const raced = this.#live.held(id);
    if (raced) return raced;
    // Its approvers say yes within their mandate: the committed effects matter only to a policy's ledger rules.
    const session = new HostedSession(this.policy, this.#options, this.store, record, this.#readEffects);
    this.#live.touch(id, (record as CredentialedSession).credential !== undefined);
    this.#live.hold(session);
    return session;
  }

  /** Append the guard's ledger events so far, then `events`, to the session's chain. */
  async #audit(session: HostedSession, ...events: Omit<AuditEvent, "at">[]): Promise<void> {
    // One write for them all (a step's events are kept together).
    await this.store.writeAuditEvents(session.record.id, this.#events(session, ...events));
  }

  /** The guard's ledger events so far, then `events`, as audit events to write with a step. */
  #events(session: HostedSession | string, ...events: Omit<AuditEvent, "at">[]): AuditEvent[] {
    const ledger = typeof session === "string" ? [] : session.takeEvents();
    const all: AuditEvent[] = [];
    if (!ledger.length && !events.length) return all;
    const at = this.#now().toISOString();
    for (const event of ledger) all.push({ kind: "ledger", at, event });
    for (const event of events) all.push({ ...event, at } as AuditEvent);
    return all;
  }
}
