/**
 * Asking an approver for a ruling on one exact call.
 *
 * @module
 */
import { errorText, type PartialLabel } from "../core/mod.ts";
import type { Branch } from "./branch.ts";
import type { Decision } from "./decision.ts";
import type { Gap } from "./gap.ts";
import { RulingError } from "./guard_errors.ts";
import { judge } from "./judge.ts";
import type { Ruling } from "./ruling.ts";
import { judgeState, type Session } from "./session.ts";
import { makeToolCall, type ToolCall } from "./tool_call.ts";

/**
 * Ask an approver for a ruling, bound to the open gaps in its mandate and to
 * the branch's label now. Approver `user` records the user's confirmation
 * (for a user who answered elsewhere): it covers the open `confirm` gaps.
 * Throws {@linkcode RulingError} when the policy names no such approver, its
 * mandate covers none of the open gaps, or its rule refuses.
 */
export function requestRuling(session: Session, branch: Branch, approver: string, call: ToolCall): Ruling {
  const state = judgeState(session, branch);
  const report = judge(state, call);
  if (approver === "user") {
    const confirmable = report.gaps.filter((gap) => gap.severity === "confirm");
    if (!confirmable.length) {
      throw new RulingError(`Cannot ask the user about ${call.tool}: no open gap can be waived by a confirmation`);
    }
    return mint(session, branch, "user", call, confirmable, state.label);
  }
  const holder = Object.hasOwn(session.approvers, approver) ? session.approvers[approver] : undefined;
  if (!holder) throw new RulingError(`Cannot ask approver "${approver}": the policy names no such approver`);
  const inMandate = report.gaps.filter((gap) => holder.mandate.includes(gap.code));
  if (!inMandate.length) {
    const open = [...new Set(report.gaps.map((gap) => gap.code))];
    throw new RulingError(
      `Cannot ask approver "${approver}" about ${call.tool}: its mandate [${
        holder.mandate.join(", ")
      }] covers none of the open gaps [${open.join(", ")}]`,
    );
  }
  let answer: boolean | string;
  try {
    answer = holder.rule({
      tool: call.tool,
      args: call.args,
      gaps: inMandate,
      label: state.label,
      effects: [...state.effects].sort(),
      branch: branch.name,
    });
  } catch (error) {
    answer = `its rule failed: ${errorText(error)}`;
  }
  if (answer !== true) {
    throw new RulingError(
      `Approver "${approver}" refuses ${call.tool}: ${typeof answer === "string" ? answer : "its rule says no"}`,
    );
  }
  return mint(session, branch, approver, call, inMandate, state.label);
}

/**
 * Record the user's yes to a decision exactly as it was shown to them: a
 * ruling from `user` bound to the shown call, its `confirm` gaps and the label
 * it was decided under (`labelBefore`), as the guard's own confirm callback
 * binds it. Spent with `propose()`, it waives only those gaps, and only while
 * the branch's label is the same: a gap the user never saw stays open. Throws
 * {@linkcode RulingError} when the decision was made for another branch or
 * another call than its arguments, or has no gap a confirmation can waive.
 */
export function confirmShown(session: Session, branch: Branch, shown: Decision): Ruling {
  const call = makeToolCall(shown.tool, shown.args);
  const confirmable = shown.gaps.filter((gap) => gap.severity === "confirm");
  const why = shown.fingerprint !== call.fingerprint
    ? "it is for other arguments"
    : shown.branch !== branch.name
    ? `it was shown in branch "${shown.branch}", not "${branch.name}"`
    : !confirmable.length
    ? "it has no confirm gap"
    : undefined;
  if (why) throw new RulingError(`Cannot record a confirmation of ${call.tool} from the decision shown: ${why}`);
  return mint(session, branch, "user", call, confirmable, shown.labelBefore);
}

function mint(
  session: Session,
  branch: Branch,
  approver: string,
  call: ToolCall,
  gaps: readonly Gap[],
  label: PartialLabel,
): Ruling {
  const ruling = branch.rulings.mint(approver, call, gaps, label);
  session.ledger.record("ruling-minted", branch.name, {
    tool: call.tool,
    fingerprint: call.fingerprint,
    detail: { ruling: ruling.id, approver, covers: [...ruling.covers] },
  });
  return ruling;
}
