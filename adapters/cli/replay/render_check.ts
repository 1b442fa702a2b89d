/**
 * How `pab check` prints its findings: a text report with every untrusted
 * piece escaped, or one JSON document.
 *
 * @module
 */
import { formatRecovery, type Policy } from "../../../guard/mod.ts";
import type { ReplayedCall } from "../../trace/mod.ts";
import { closestWord } from "../../../core/mod.ts";
import { escapeControl } from "../io/escape_text.ts";
import { formatCall } from "./format_call.ts";
import type { ReplayedFile } from "./stream_trace.ts";
import type { Style } from "../io/style.ts";

/**
 * What `pab check` found: the policy and each trace's replay.
 *
 * @example
 * ```ts
 * import type { CheckReport } from "./render_check.ts";
 * import { parsePolicy } from "../../../guard/policy/text/mod.ts";
 * const report: CheckReport = { policyPath: "p.yaml", policy: parsePolicy("version: 1\n"), replays: [] };
 * ```
 */
export interface CheckReport {
  /** The policy's path as given. */
  readonly policyPath: string;
  /** The policy. */
  readonly policy: Policy;
  /** Each trace with its replay, in the order given. */
  readonly replays: readonly ReplayedFile[];
  /** The files that could not be read, each with its coded error (the others are still reported). */
  readonly failed?: readonly FailedFile[];
}

/** A file `pab check` could not read or replay, and why. */
export interface FailedFile {
  /** The path as given or found in a folder. */
  readonly file: string;
  /** The error's stable code, such as `ERR_TRACE_INVALID`. */
  readonly code: string;
  /** The error's message. */
  readonly message: string;
}

/**
 * The text report: a line per call, its reasons, vouching sources, notes and
 * way to yes indented under it, and a summary line. Every id, value, message
 * and note has its control characters escaped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderCheckText } from "./render_check.ts";
 * import { styleFor } from "../io/style.ts";
 * import { parsePolicy } from "../../../guard/policy/text/mod.ts";
 * const policy = parsePolicy("version: 1\n");
 * const text = renderCheckText({ policyPath: "p.yaml", policy, replays: [] }, styleFor({ isTerminal: false, noColor: false }));
 * assert.equal(text, "0 calls in 0 traces\n");
 * ```
 */
export function renderCheckText(report: CheckReport, style: Style): string {
  const lines: string[] = [];
  const calls = report.replays.flatMap(({ replay }) => replay.calls);
  for (const call of calls) {
    const word = call.decision.toUpperCase().padEnd(7);
    const painted = call.decision === "allow"
      ? style.green(word)
      : call.decision === "confirm"
      ? style.yellow(word)
      : style.red(word);
    lines.push(`${painted} ${escapeControl(call.trace)}#${escapeControl(call.id)} ${formatCall(call.tool, call.args)}`);
    for (const reason of call.reasons) lines.push(`  - [${reason.code}] ${escapeControl(reason.message)}`);
    for (const item of call.evidence) {
      const shown = `${escapeControl(item.argument)}=${quote(item.value)}`;
      lines.push(
        item.sources.length
          ? `  + ${shown} comes from ${escapeControl(item.sources.join(", "))}`
          : `  + ${shown} is on the allow list`,
      );
    }
    for (const note of notesOf(call, report.policy)) {
      lines.push(`  note [${note.code}]: ${escapeControl(note.message)}`);
    }
    if (call.recovery) lines.push(`  ${escapeControl(formatRecovery(call.recovery))}`);
  }
  const summary = summarise(report);
  const parts = [
    summary.allowed ? `${summary.allowed} allowed` : "",
    summary.confirm ? `${summary.confirm} to confirm` : "",
    summary.blocked ? `${summary.blocked} blocked` : "",
  ].filter(Boolean);
  lines.push(
    `${plural(summary.calls, "call")} in ${plural(summary.traces, "trace")}${
      parts.length ? `: ${parts.join(", ")}` : ""
    }`,
  );
  return lines.join("\n") + "\n";
}

/**
 * The JSON report (`schemaVersion` 1): per call its trace id, file and line,
 * the decision, the reasons, the sources that vouched for each checked value,
 * the notes and the way to yes; then a summary.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderCheckJson } from "./render_check.ts";
 * import { parsePolicy } from "../../../guard/policy/text/mod.ts";
 * const json = JSON.parse(renderCheckJson({ policyPath: "p.yaml", policy: parsePolicy("version: 1\n"), replays: [] }));
 * assert.deepEqual(json.summary, { traces: 0, calls: 0, allowed: 0, confirm: 0, blocked: 0 });
 * ```
 */
export function renderCheckJson(report: CheckReport): string {
  const data = {
    schemaVersion: 1,
    policy: report.policyPath,
    calls: report.replays.flatMap(({ file, lines, replay }) =>
      replay.calls.map((call) => ({
        trace: call.trace,
        file,
        line: lines.get(call.id) ?? null,
        id: call.id,
        tool: call.tool,
        args: call.args,
        ...(call.actor === undefined ? {} : { actor: call.actor }),
        decision: call.decision,
        reasons: call.reasons.map((reason) => ({ code: reason.code, message: reason.message })),
        vouching: call.evidence.map((item) => ({ argument: item.argument, value: item.value, sources: item.sources })),
        notes: notesOf(call, report.policy),
        wayToYes: call.recovery ? { ...call.recovery, text: formatRecovery(call.recovery) } : null,
        ran: call.ran,
      }))
    ),
    errors: (report.failed ?? []).map(({ file, code, message }) => ({ file, code, message })),
    summary: summarise(report),
  };
  return JSON.stringify(data, null, 2) + "\n";
}

/** A call's notes, with "did you mean" added to a tool the policy does not name. */
function notesOf(call: ReplayedCall, policy: Policy): { code: string; message: string }[] {
  const known = Object.keys(policy.tools);
  const guess = Object.hasOwn(policy.tools, call.tool) ? undefined : closestWord(call.tool, known);
  const notes = call.notes.map((note) => ({ code: note.code as string, message: note.message }));
  if (!guess) return notes;
  const hint = ` (did you mean "${guess}"?)`;
  const unknown = notes.find((note) => note.code === "unknown-tool");
  if (unknown) unknown.message += hint;
  else notes.push({ code: "unknown-tool", message: `"${call.tool}" is not in the policy${hint}` });
  return notes;
}

function summarise(report: CheckReport) {
  const calls = report.replays.flatMap(({ replay }) => replay.calls);
  const count = (outcome: string) => calls.filter((call) => call.decision === outcome).length;
  return {
    traces: report.replays.length,
    calls: calls.length,
    allowed: count("allow"),
    confirm: count("confirm"),
    blocked: count("block"),
  };
}

function quote(value: string): string {
  const short = value.length > 80 ? `${value.slice(0, 77)}...` : value;
  return `'${escapeControl(short)}'`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}
