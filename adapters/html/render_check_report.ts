/**
 * The HTML report of `pab check --html FILE`.
 *
 * @module
 */
import { escapeHtml } from "./escape_html.ts";
import { htmlDocument } from "./html_document.ts";
import { outcomeSummary, renderTrace } from "./render_pictures.ts";
import type { TraceView } from "./report_view.ts";

/** What `pab check` replayed. */
export interface CheckReportInput {
  /** The policy file's path, as given on the command line. */
  readonly policy: string;
  /** Every trace, as {@linkcode traceView} describes it, in command-line order. */
  readonly traces: readonly TraceView[];
}

/**
 * Render a standalone HTML page (no script, nothing fetched) with, for every
 * trace, the label over time and every call's decision card: outcome,
 * reasons, vouching sources, notes and the way to yes. Every value is escaped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderCheckReport } from "./render_check_report.ts";
 * const html = renderCheckReport({
 *   policy: "demo.policy.yaml",
 *   traces: [{
 *     file: "hijack.jsonl", trace: "hijack",
 *     timeline: [{ event: "user message", label: "<all | trusted>", trust: "trusted" }],
 *     calls: [{
 *       id: "c1", tool: "send_email", args: { to: "eve@attacker.example" }, outcome: "block",
 *       reasons: [{ code: "untrusted-argument", message: "to='eve@attacker.example' appears only in untrusted input" }],
 *       vouching: [], notes: [],
 *     }],
 *   }],
 * });
 * assert.match(html, /1 call in 1 trace: 0 allowed, 0 to confirm, 1 blocked/);
 * assert.match(html, /class="call outcome-block"/);
 * ```
 */
export function renderCheckReport(input: CheckReportInput): string {
  const outcomes = input.traces.flatMap((trace) => trace.calls.map((call) => call.outcome));
  const summary = outcomeSummary(outcomes).replace(
    /^(\d+ calls?)/,
    `$1 in ${input.traces.length} trace${input.traces.length === 1 ? "" : "s"}`,
  );
  const body = `<h1>pab check</h1>
<p class="summary">policy <code>${escapeHtml(input.policy)}</code> · ${escapeHtml(summary)}</p>
${input.traces.map(renderTrace).join("\n")}`;
  return htmlDocument(`pab check: ${input.policy}`, body);
}
