/**
 * Judge one recorded AgentDojo run with the guard: every call decided, every
 * output recorded as the model saw it. No model, no Python.
 *
 * @module
 */
import { Guard, type Policy, type RecoveryStep } from "../../mod.ts";
import type { Actor, Trace } from "../trace/trace.ts";

/** What the guard said about one call of the run. */
export interface JudgedCall {
  /** The call's id in the trace. */
  readonly id: string;
  /** The tool. */
  readonly tool: string;
  /** The exact arguments. */
  readonly args: Readonly<Record<string, unknown>>;
  /** Who wanted the call. */
  readonly actor: Actor;
  /**
   * `allow`; `ruling` when the way to yes needs rulings (see `approvers`);
   * `blocked` when no route exists in the policy.
   */
  readonly verdict: "allow" | "ruling" | "blocked";
  /** For `ruling`: who must rule and which gaps they waive, such as `user:untrusted-argument`. */
  readonly approvers: readonly string[];
  /** The decision's reasons (gap codes and messages; notes for allowed calls). */
  readonly reasons: readonly { readonly code: string; readonly message: string }[];
}

/**
 * Replay a trace through a fresh guard. Allowed calls run (their recorded
 * output is returned, so ledger effects commit); denied calls are decided and
 * their recorded output is still recorded, because the conversation did go on.
 */
export async function judgeTrace(trace: Trace, policy: Policy): Promise<JudgedCall[]> {
  const guard = new Guard(policy, { recover: false });
  const calls = new Map<
    string,
    { tool: string; args: Readonly<Record<string, unknown>>; actor: Actor; ran: boolean }
  >();
  const judged: JudgedCall[] = [];
  for (const event of trace.events) {
    if (event.type === "system") guard.system(event.content);
    else if (event.type === "user") guard.user(event.content);
    else if (event.type === "call") {
      const decision = guard.decide(event.tool, event.args);
      const steps: readonly RecoveryStep[] = decision.recovery?.found ? decision.recovery.steps : [];
      const verdict = decision.outcome === "allow" ? "allow" : decision.recovery?.found ? "ruling" : "blocked";
      judged.push({
        id: event.id,
        tool: event.tool,
        args: event.args,
        actor: event.actor ?? "user",
        verdict,
        approvers: steps.flatMap((step) => step.kind === "ruling" ? [`${step.approver}:${step.covers.join("+")}`] : []),
        reasons: [
          ...decision.gaps.map((gap) => ({ code: gap.code, message: gap.message })),
          ...decision.notes.map((note) => ({ code: note.code, message: note.message })),
        ],
      });
      calls.set(event.id, {
        tool: event.tool,
        args: event.args,
        actor: event.actor ?? "user",
        ran: verdict === "allow",
      });
    } else if (event.type === "result") {
      const call = calls.get(event.id);
      if (!call) continue;
      // The structured form, where there is one, lets trusted output vouch for whole fields only.
      const output = event.data !== undefined ? event.data : event.content;
      if (call.ran) {
        await guard.propose(call.tool, call.args, { accept: true, run: () => output });
      } else {
        guard.record(call.tool, event.content, {
          args: call.args,
          ...(event.data !== undefined ? { data: event.data } : {}),
        });
      }
    }
  }
  return judged;
}
