/**
 * Deciding and dispatching one call: Gate 1 once, rulings bound to what was
 * shown, the user's confirmation, atomic reservation of ledger effects, and
 * completion (Gate 2 and the ledger).
 *
 * @module
 */
import { canonicalJson, errorText, formatPartialLabel, type PartialLabel } from "../core/mod.ts";
import type { Branch } from "./branch.ts";
import { type Decision, makeDecision, type Recovery, type RecoveryStep } from "./decision.ts";
import { planEffects } from "./effect_plan.ts";
import type { Gap } from "./gap.ts";
import type { CompleteResult, ProposeOptions, Reservation, ReserveResult } from "./guard_options.ts";
import { ReservationError } from "./guard_errors.ts";
import { judge, type Judgement } from "./judge.ts";
import { planRecovery } from "./plan_recovery.ts";
import { recordOutput } from "./record_output.ts";
import type { Ruling } from "./ruling.ts";
import { judgeState, type Session } from "./session.ts";
import type { ToolCall } from "./tool_call.ts";

/** How many times the user is asked about one call before it is blocked (new gaps may appear while asking). */
const MAX_ASKS = 3;

/** Gate 1 for a call, as a decision without a recovery plan, with the judgement it came from. */
export function judgeCall(
  session: Session,
  branch: Branch,
  call: ToolCall,
): { decision: Decision; judgement: Judgement } {
  const judgement = judge(judgeState(session, branch), call);
  const decision = makeDecision({
    tool: call.tool,
    args: call.args,
    fingerprint: call.fingerprint,
    branch: branch.name,
    gaps: judgement.gaps,
    waived: [],
    notes: judgement.notes,
    evidence: judgement.evidence,
    labelBefore: branch.label,
    labelAfter: judgement.future,
  });
  return { decision, judgement };
}

/** The way to yes, reusing Gate 1's judgement of the call. */
export function recoveryFor(session: Session, branch: Branch, call: ToolCall, judgement: Judgement): Recovery {
  try {
    const state = judgeState(session, branch);
    const depth = session.options.planDepth ?? 3;
    const recovery = planRecovery({ state, approvers: session.approvers, branch: branch.name, depth }, call, judgement);
    if (!recovery.found || recovery.steps.length) return recovery;
    return { found: true, steps: readChoices(session, branch, call, judgement.future).slice(0, 1) };
  } catch (error) {
    return { found: false, reason: `the planner failed: ${errorText(error)}` };
  }
}

/** How to take a read that would make the label stricter: child branches with a schema for the tool, or accepting. */
export function readChoices(session: Session, branch: Branch, call: ToolCall, after: PartialLabel): RecoveryStep[] {
  if (canonicalJson(after) === canonicalJson(branch.label)) return [];
  const schemas = Object.entries(session.policy.schemas).filter(([, schema]) => schema.tools.includes(call.tool));
  return [
    ...schemas.map(([schema]) => ({ kind: "fork" as const, schema })),
    { kind: "accept" as const, label: formatPartialLabel(after) },
  ];
}

/** Decide a call with its rulings and the user's confirmation, then reserve its effects atomically. */
export async function reserveCall(
  session: Session,
  branch: Branch,
  call: ToolCall,
  options: ProposeOptions,
): Promise<ReserveResult> {
  const { ledger } = session;
  let { decision, judgement } = judgeCall(session, branch, call);
  const rulings: Ruling[] = [...(options.rulings ?? [])];
  let bound = branch.rulings.bind(decision, call, rulings, branch.label);
  const confirm = options.confirm ?? session.options.confirm;
  for (let asked = 0; bound.decision.outcome === "confirm" && confirm && asked < MAX_ASKS; asked++) {
    const shown = bound.decision;
    const shownLabel = branch.label;
    const steps = [{ kind: "ruling" as const, approver: "user", covers: [...new Set(shown.gaps.map((g) => g.code))] }];
    let yes = false;
    try {
      yes = (await confirm(makeDecision({ ...shown, recovery: { found: true, steps } }))) === true;
    } catch {
      yes = false;
    }
    if (!yes) {
      // The user said no: their gaps now block, so the outcome says what happened.
      bound = {
        used: [],
        decision: makeDecision({
          ...shown,
          gaps: shown.gaps.map((gap): Gap => ({ ...gap, severity: "block" })),
          notes: [...shown.notes, { code: "user-declined", message: "the user did not confirm" }],
        }),
      };
      break;
    }
    // The user's yes covers exactly the gaps and the label shown; the call is judged again, as the world may have moved.
    const ruling = branch.rulings.mint(
      "user",
      call,
      shown.gaps.filter((gap) => gap.severity === "confirm"),
      shownLabel,
    );
    ledger.record("ruling-minted", branch.name, {
      tool: call.tool,
      fingerprint: call.fingerprint,
      detail: { ruling: ruling.id, approver: "user", covers: [...ruling.covers] },
    });
    rulings.push(ruling);
    ({ decision, judgement } = judgeCall(session, branch, call));
    bound = branch.rulings.bind(decision, call, rulings, branch.label);
  }
  decision = bound.decision;
  if (decision.outcome !== "allow") return blocked(session, branch, call, decision, judgement);
  if (!options.accept && canonicalJson(decision.labelAfter) !== canonicalJson(branch.label)) {
    return { status: "needs_accept", decision, options: readChoices(session, branch, call, decision.labelAfter) };
  }
  const plan = planEffects(session.policy, call, ledger.store.committed());
  const id = `${branch.name}#call-${++session.counter.calls}`;
  let reserved: boolean;
  try {
    reserved = plan.reserve.length === 0 || await ledger.store.reserve(plan.reserve, id);
  } catch {
    reserved = false;
  }
  if (!reserved) {
    const busy: Gap = {
      code: "no-prior",
      severity: "block",
      message: `${call.tool} writes or checks ${
        plan.reserve.map((key) => `"${key}"`).join(", ")
      }, which another call holds or the ledger has; try again once it completes`,
      effect: plan.reserve[0],
    };
    const { outcome: _, ...data } = decision;
    return blocked(session, branch, call, makeDecision({ ...data, gaps: [busy] }), judgement);
  }
  branch.rulings.spend(bound.used);
  for (const ruling of bound.used) {
    ledger.record("ruling-spent", branch.name, {
      tool: call.tool,
      fingerprint: call.fingerprint,
      detail: { ruling: ruling.id, approver: ruling.approver, covers: [...ruling.covers] },
    });
  }
  ledger.record("dispatch", branch.name, {
    tool: call.tool,
    fingerprint: call.fingerprint,
    detail: { rulings: bound.used.map((ruling) => ruling.approver), accepted: options.accept === true },
  });
  if (plan.reserve.length) ledger.record("reserved", branch.name, { tool: call.tool, detail: { keys: plan.reserve } });
  const reservation: Reservation = Object.freeze({
    id,
    tool: call.tool,
    fingerprint: call.fingerprint,
    effects: Object.freeze([...plan.commit]),
  });
  session.pending.set(id, { reservation, call, branch, plan });
  return { status: "reserved", decision, reservation };
}

function blocked(
  session: Session,
  branch: Branch,
  call: ToolCall,
  decision: Decision,
  judgement: Judgement,
): ReserveResult {
  const recovery = recoveryFor(session, branch, call, judgement);
  session.ledger.record("blocked", branch.name, {
    tool: call.tool,
    fingerprint: call.fingerprint,
    detail: { gaps: decision.gaps.map((gap) => gap.code), outcome: decision.outcome },
  });
  return { status: "blocked", decision: makeDecision({ ...decision, recovery }) };
}

/**
 * Finish a reserved call. With an output: record it under its label (Gate 2)
 * and commit its effects. With an error: record the error text as the tool's
 * output under its label and release what the effect plan says. A
 * reservation is plain data: a copy (say, one that went through JSON) works
 * if its id, tool and fingerprint are those of a call this session reserved.
 * Throws {@linkcode ReservationError} for a reservation this session did not
 * make or already completed. Returns a promise only when the effect store is asynchronous.
 */
export function completeCall(session: Session, given: Reservation, result: CompleteResult): void | Promise<void> {
  const id = typeof given === "object" && given !== null ? String(given.id) : String(given);
  const pending = session.pending.get(id);
  if (!pending || pending.reservation.tool !== given.tool || pending.reservation.fingerprint !== given.fingerprint) {
    throw new ReservationError(`Cannot complete reservation "${id}": this guard holds no such call`);
  }
  const reservation = pending.reservation;
  session.pending.delete(reservation.id);
  const { call, branch, plan } = pending;
  const { ledger, policy } = session;
  const context = { policy, branch, ledger };
  const waits: Array<void | Promise<void>> = [];
  if (typeof result === "object" && result !== null && "error" in result) {
    try {
      recordOutput(context, call.tool, String(result.error), { args: call.args });
    } finally {
      // A tool that failed is taken as not having acted: nothing is committed and a retry may run.
      if (plan.reserve.length) {
        waits.push(ledger.store.release(plan.reserve, reservation.id));
        ledger.record("released", branch.name, { tool: call.tool, detail: { keys: plan.reserve } });
      }
      ledger.record("tool-failed", branch.name, {
        tool: call.tool,
        fingerprint: call.fingerprint,
        detail: { error: String(result.error) },
      });
    }
  } else {
    try {
      recordOutput(context, call.tool, result?.output, {
        args: call.args,
        ...(result?.label === undefined ? {} : { label: result.label }),
      });
    } finally {
      if (plan.commit.length) {
        waits.push(ledger.store.commit(plan.commit, reservation.id));
        ledger.record("committed", branch.name, { tool: call.tool, detail: { keys: plan.commit } });
      }
      if (plan.releaseOnSuccess.length) waits.push(ledger.store.release(plan.releaseOnSuccess, reservation.id));
    }
  }
  const promises = waits.filter((wait): wait is Promise<void> => wait instanceof Promise);
  if (promises.length) return Promise.all(promises).then(() => undefined);
}
