/**
 * Following a way to yes through a guard's public methods.
 *
 * @module
 */
import type { Recovery } from "./decision.ts";
import type { ProposeOptions, ProposeResult } from "./guard_options.ts";
import { RulingError } from "./guard_errors.ts";
import type { Ruling } from "./ruling.ts";

/** The guard methods a plan is followed with. */
export interface RecoveringGuard {
  /** The way to yes. */
  planRecovery(tool: string, args: Readonly<Record<string, unknown>>): Recovery;
  /** Propose a call through both gates. */
  propose(tool: string, args: Readonly<Record<string, unknown>>, options?: ProposeOptions): Promise<ProposeResult>;
  /** Ask an approver for a ruling. */
  requestRuling(approver: string, tool: string, args: Readonly<Record<string, unknown>>): Ruling;
}

/**
 * Run the prerequisites of a blocked call's plan (through both gates), collect
 * rulings from approvers, then propose the call again with them. A refusing
 * approver leaves its gaps open; the final proposal says what remains.
 */
export async function followRecovery(
  guard: RecoveringGuard,
  tool: string,
  args: Readonly<Record<string, unknown>>,
  options: ProposeOptions,
): Promise<ProposeResult> {
  const recovery = guard.planRecovery(tool, args);
  if (!recovery.found) return guard.propose(tool, args, options);
  const rulings: Ruling[] = [...(options.rulings ?? [])];
  for (const step of recovery.steps) {
    if (step.kind === "run") {
      const result = await guard.propose(step.tool, step.args, { accept: true });
      if (result.status !== "done") return result;
    } else if (step.kind === "ruling" && step.approver !== "user") {
      try {
        rulings.push(guard.requestRuling(step.approver, tool, args));
      } catch (error) {
        if (!(error instanceof RulingError)) throw error;
      }
    }
  }
  return guard.propose(tool, args, { ...options, rulings });
}
