import type { AuditEvent } from "../audit/mod.ts";
import type { SessionInput } from "./pab_store.ts";

/**
 * The audit events written with an input, the last one naming the input's
 * position (`input: seq`): every stored input names its audit record, so a
 * check can tell that none is missing. When no event of the step records a
 * tool's output (a finished reservation's names the call, not what it
 * returned), the last one gets it, with its arguments and label, so the chain
 * holds what the guard replays and `audit verify` can compare the two.
 * Without `linked`, `audit` as it is.
 */
export function linkInput(
  audit: readonly AuditEvent[],
  linked: { readonly seq: number; readonly input: SessionInput } | undefined,
): readonly AuditEvent[] {
  if (!audit.length || !linked) return audit;
  const { seq, input } = linked;
  const last = audit[audit.length - 1];
  const recorded = input.kind === "result" && !audit.some((event) => Object.hasOwn(event, "output"))
    ? { args: input.args, output: input.output, ...(input.label ? { label: input.label } : {}) }
    : {};
  return [...audit.slice(0, -1), { ...last, ...recorded, input: seq }];
}
