/**
 * A readable timeline of audit records, one line per event, safe to print on
 * a terminal: control and bidirectional characters are escaped.
 *
 * @module
 */
import type { AuditRecord } from "./audit_record.ts";

// deno-lint-ignore no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Replace control and bidirectional-override characters with `\u{...}` escapes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeControl } from "./format_timeline.ts";
 * assert.equal(escapeControl("a\u001b[31mb\nc"), "a\\u{1b}[31mb\\u{a}c");
 * ```
 */
export function escapeControl(text: string): string {
  return text.replace(UNSAFE, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`);
}

/**
 * One line per record: chain, position, time, kind and a summary.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linkRecord } from "./audit_record.ts";
 * import { formatTimeline } from "./format_timeline.ts";
 * const record = linkRecord("s_1", undefined, { kind: "message", at: "2026-11-30T15:00:00.000Z", role: "user", text: "hi\u202e" });
 * assert.equal(formatTimeline([record]), 's_1 #0 2026-11-30T15:00:00.000Z message user: "hi\\u{202e}"\n');
 * ```
 */
export function formatTimeline(records: readonly AuditRecord[]): string {
  return records.map((record) =>
    escapeControl(`${record.stream} #${record.seq} ${String(record.event.at)} ${record.event.kind} ${summary(record)}`)
      .trimEnd() + "\n"
  ).join("");
}

function summary(record: AuditRecord): string {
  const event = record.event as Record<string, unknown>;
  switch (event.kind) {
    case "session":
      return `opened (ledger "${String(event.ledger)}")`;
    case "message":
      return `${String(event.role)}: ${short(event.text)}`;
    case "result":
      return `${String(event.tool)} returned ${short(event.output)}${event.error ? " (error)" : ""}`;
    case "decision": {
      const decision = (event.decision ?? {}) as Record<string, unknown>;
      const gaps = Array.isArray(decision.gaps)
        ? decision.gaps.map((gap) => `[${String((gap as Record<string, unknown>)?.code)}]`).join(" ")
        : "";
      return `${String(decision.tool)} ${short(decision.args)}: ${String(decision.outcome)}${gaps ? ` ${gaps}` : ""}${
        event.status ? ` -> ${String(event.status)}` : ""
      }`;
    }
    case "ruling":
      return `${String(event.id)} from ${String(event.approver)} for ${String(event.tool)}`;
    case "reservation":
    case "effect":
    case "release":
      return `${String(event.tool)} ${String(event.reservation)} [${
        Array.isArray(event.effects) ? event.effects.join(", ") : ""
      }]`;
    case "ledger": {
      const ledger = (event.event ?? {}) as Record<string, unknown>;
      const tool = ledger.tool === undefined ? "" : ` ${String(ledger.tool)}`;
      return `${String(ledger.kind)} (${String(ledger.branch)})${tool} ${short(ledger.detail)}`;
    }
    default:
      return short(event);
  }
}

function short(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
