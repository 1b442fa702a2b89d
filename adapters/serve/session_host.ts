/**
 * Sessions behind `pab serve` and `pab hook`: each session has its own guard
 * (nothing one session read can vouch in another), rebuilt in any process from
 * the store, and every decision, ruling, reservation and effect goes to the
 * session's audit chain.
 *
 * @module
 */
import { fingerprintCall, type Label, PabError } from "../../core/mod.ts";
import type { ApproverRule, Decision, GuardOptions, Policy, Recovery, Ruling } from "../../guard/mod.ts";
import type { AuditEvent, AuditRecord } from "../audit/mod.ts";
import {
  completeCall,
  exclusiveEffects,
  isReservationConflict,
  type PabStore,
  type ReservationRecord,
  reserveCall,
  type ReserveResult,
  toolEffects,
} from "../store/mod.ts";
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
}

/**
 * Host sessions of one policy on one store.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../guard/mod.ts";
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
    this.#options = { approvers };
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
    if (!(await this.store.createSession(record))) {
      throw new RequestError(409, "ERR_SESSION_EXISTS", `Cannot make session "${id}": it exists`);
    }
    await this.#audit(id, { kind: "session", ledger: record.ledger });
    return id;
  }

  /** Whether a session exists. */
  async has(id: string): Promise<boolean> {
    return this.#sessions.has(id) || (await this.store.session(id)) !== undefined;
  }

  /** Record a system or user message (trusted). */
  message(id: string, role: "system" | "user", text: string): Promise<void> {
    return this.#with(id, async (session) => {
      await session.add({ kind: role, text });
      await this.#audit(id, { kind: "message", role, text });
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
      await session.add({ kind: "result", tool: call.tool, args: call.args, output });
      await this.#audit(id, { kind: "result", tool: call.tool, args: call.args, output, error: call.error });
      const effects = call.ran && call.error === undefined ? toolEffects(this.policy, call.tool) : [];
      if (effects.length) {
        await session.effects.commit(effects, `result:${fingerprintCall(call.tool, call.args)}`);
        session.guard.ledger.commit(effects);
        await this.#audit(id, { kind: "effect", reservation: null, tool: call.tool, effects });
      }
    });
  }

  /** Gate 1 for one call, with no side effects but an audit event. */
  decide(id: string, call: CallRequest): Promise<Decision> {
    return this.#with(id, async (session) => {
      const decision = session.guard.decide(call.tool, call.args);
      await this.#audit(id, { kind: "decision", decision });
      return decision;
    });
  }

  /** The way to yes for a call. */
  plan(id: string, call: CallRequest): Promise<Recovery> {
    return this.#with(id, (session) => Promise.resolve(session.guard.planRecovery(call.tool, call.args)));
  }

  /** Decide a call and, if allowed, reserve its effects: the caller then runs the tool and calls {@linkcode SessionHost.commit}. */
  propose(
    id: string,
    call: CallRequest & {
      readonly accept?: boolean;
      readonly rulings?: readonly string[];
      /** The reservation's id (default: a random one). */
      readonly reservation?: string;
    },
  ): Promise<ReserveResult> {
    return this.#with(id, async (session) => {
      const fingerprint = fingerprintCall(call.tool, call.args);
      const held = (call.rulings ?? []).map((ruling) => heldRuling(session, ruling, fingerprint));
      const rulings: Ruling[] = held.flatMap((entry) => entry.kind === "approver" ? [entry.ruling] : []);
      const confirmed = held.some((entry) => entry.kind === "user");
      const reservation = call.reservation ?? `r_${randomHex(12)}`;
      const result = await reserveCall(session.guard, session.effects, call.tool, call.args, {
        id: reservation,
        accept: call.accept === true,
        rulings,
        ...(confirmed ? { confirm: () => true } : {}),
      });
      await this.#audit(id, { kind: "decision", decision: result.decision, status: result.status });
      if (isReservationConflict(result.decision)) session.stale = true;
      if (result.status !== "reserved") return result;
      const keys = exclusiveEffects(this.policy, call.tool);
      for (const entry of held) {
        if (!(await this.store.spendRuling(id, entry.id))) {
          await session.effects.release(keys, reservation);
          throw new RequestError(409, "ERR_RULING_SPENT", `Cannot use ruling "${entry.id}": it was already spent`);
        }
      }
      await this.store.saveReservation({
        id: reservation,
        session: id,
        tool: call.tool,
        args: call.args,
        fingerprint,
        effects: result.reservation.effects,
        keys,
      });
      await this.#audit(id, { kind: "reservation", reservation, tool: call.tool, fingerprint, effects: keys });
      return result;
    });
  }

  /** Finish a reserved call with its output (effects committed) or its error (reservation released). */
  commit(
    id: string,
    done: { readonly reservation: string; readonly output?: unknown; readonly error?: string; readonly label?: Label },
  ): Promise<ReservationRecord> {
    return this.#with(id, async (session) => {
      const record = await this.store.reservation(id, done.reservation);
      if (!record || !(await this.store.finishReservation(id, done.reservation))) {
        throw new RequestError(
          404,
          "ERR_RESERVATION_UNKNOWN",
          `Cannot finish reservation "${done.reservation}": session "${id}" holds no such open reservation`,
        );
      }
      const outcome = done.error !== undefined
        ? { error: done.error }
        : { output: done.output, ...(done.label ? { label: done.label } : {}) };
      await completeCall(session.guard, session.effects, { ...record }, record, outcome);
      await session.append({
        kind: "result",
        tool: record.tool,
        args: record.args,
        output: done.error ?? done.output,
        ...(done.label && done.error === undefined ? { label: done.label } : {}),
      });
      await this.#audit(id, {
        kind: done.error !== undefined ? "release" : "effect",
        reservation: record.id,
        tool: record.tool,
        effects: done.error !== undefined ? record.keys : record.effects,
        ...(done.error !== undefined ? { error: done.error } : {}),
      });
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
      } else {
        session.guard.requestRuling(approver, tool, args); // throws (ERR_RULING_REFUSED) when refused
      }
      const rulingId = `${approver}#${randomHex(6)}`;
      await session.add({ kind: "ruling", id: rulingId, approver, tool, args });
      await this.#audit(id, { kind: "ruling", id: rulingId, approver, tool, fingerprint });
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
        return await task(session);
      } catch (error) {
        // A refusal or a bad request changed nothing; anything else may have left this copy ahead of the store.
        session.stale ||= !(error instanceof RequestError) && !isRulingRefusal(error);
        throw error;
      } finally {
        // A stale copy (a failed write, or a refused reservation that touched the guard) is rebuilt from the store.
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

  async #audit(id: string, event: Omit<AuditEvent, "at">): Promise<void> {
    await this.store.appendAudit(id, { ...event, at: this.#now().toISOString() } as AuditEvent);
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
