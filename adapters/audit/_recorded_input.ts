// Whether an audit event records the stored input it names (`input: SEQ`): the input is what the guard replays, so an
// input changed after it was recorded changes what later calls are judged against while its record stays as it was.
import { canonicalJson, fingerprintCall } from "../../core/mod.ts";
import type { AuditEvent } from "./audit_record.ts";

/**
 * Why the events of a step (written in one write with `input`, the last one
 * naming it) do not record `input` (a session input as a store keeps it: a
 * message, a tool's result or a ruling), or undefined when they do. A tool's
 * output is recorded by the step's last event that has one; a step written
 * before outputs were added to finished reservations' events (none has
 * `output`) is checked by its tool only.
 */
export function unrecordedBy(step: readonly AuditEvent[], input: unknown): string | undefined {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return "it is not a session input";
  const stored = input as Record<string, unknown>;
  const named = step[step.length - 1];
  const event = stored.kind === "result" ? step.findLast((one) => Object.hasOwn(one, "output")) ?? named : named;
  switch (stored.kind) {
    case "system":
    case "user":
      if (event.kind !== "message" || event.role !== stored.kind) return `it is a ${stored.kind} message`;
      return event.text === stored.text ? undefined : "its text differs";
    case "result":
      if (event.tool !== stored.tool) return "its tool differs";
      if (!Object.hasOwn(event, "output")) return undefined;
      if (!same(event.output, stored.output)) return "its output differs";
      if (Object.hasOwn(event, "args") && !same(event.args, stored.args)) return "its arguments differ";
      return same(event.label ?? null, stored.label ?? null) ? undefined : "its label differs";
    case "ruling":
      if (event.kind !== "ruling" || event.id !== stored.id) return "it is another ruling";
      if (event.approver !== stored.approver || event.tool !== stored.tool) return "its approver or tool differs";
      try {
        const fingerprint = fingerprintCall(String(stored.tool), stored.args as Record<string, unknown>);
        return event.fingerprint === fingerprint ? undefined : "its arguments differ";
      } catch {
        return "its arguments cannot be fingerprinted";
      }
    default:
      return "it is not a session input";
  }
}

function same(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}
