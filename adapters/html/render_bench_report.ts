/**
 * The HTML report of `pab bench agentdojo --html FILE`.
 *
 * @module
 */
import { escapeHtml } from "./escape_html.ts";
import { htmlDocument } from "./html_document.ts";
import { renderTrace } from "./render_pictures.ts";
import type { TraceView } from "./report_view.ts";

/** One run of a suite: a user task, or a (user task, injection task) pair. */
export interface BenchRunView {
  /** `user_task_3`, or `user_task_3 x injection_task_1`. */
  readonly name: string;
  /** `legitimate` or `attack`. */
  readonly kind: "legitimate" | "attack";
  /** The bench's verdict: `allowed`, `ruling`, `blocked` (legitimate); `blocked`, `held`, `through` (attack). */
  readonly outcome: string;
  /** The rulings it needed, or what blocked or held it. */
  readonly detail?: string;
  /** The run's pictures (label over time, every call's card), when the caller gives them. */
  readonly trace?: TraceView;
}

/** One suite's counts and runs. */
export interface BenchSuiteView {
  /** The suite's name. */
  readonly suite: string;
  /** The suite's counts, in table order (`legitAllowed`: 14, ...). */
  readonly counts: readonly { readonly name: string; readonly value: number | string }[];
  /** Every run. */
  readonly runs: readonly BenchRunView[];
}

/** What `pab bench agentdojo` measured. */
export interface BenchReportInput {
  /** The page's heading, such as `AgentDojo v1.2.2, replayed through pab`. */
  readonly title: string;
  /** Every suite, in order. */
  readonly suites: readonly BenchSuiteView[];
}

/** How a verdict reads: good for pab (stopped an attack, let a task through), needs a person, or bad. */
function verdictOutcome(run: BenchRunView): string {
  if (run.kind === "attack") return run.outcome === "through" ? "block" : "allow";
  return run.outcome === "allowed" ? "allow" : run.outcome === "ruling" ? "confirm" : "block";
}

/**
 * Render a standalone HTML page: a table of every suite's counts, then every
 * run with its verdict and, where given, its pictures (the same as `pab
 * check --html` draws). Every value is escaped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderBenchReport } from "./render_bench_report.ts";
 * const html = renderBenchReport({
 *   title: "AgentDojo v1.2.2, replayed through pab",
 *   suites: [{
 *     suite: "banking",
 *     counts: [{ name: "legitAllowed", value: 14 }, { name: "attacksStopped", value: 144 }],
 *     runs: [{ name: "user_task_0 x injection_task_1", kind: "attack", outcome: "held", detail: "needs the user" }],
 *   }],
 * });
 * assert.match(html, /<td class="n">144<\/td>/);
 * assert.match(html, /user_task_0 x injection_task_1/);
 * ```
 */
export function renderBenchReport(input: BenchReportInput): string {
  const names = [...new Set(input.suites.flatMap((suite) => suite.counts.map((count) => count.name)))];
  const table = `<div class="counts-scroll"><table class="counts"><thead><tr><th>suite</th>${
    names.map((name) => `<th>${escapeHtml(name)}</th>`).join("")
  }</tr></thead><tbody>${
    input.suites.map((suite) =>
      `<tr><th>${escapeHtml(suite.suite)}</th>${
        names.map((name) => {
          const count = suite.counts.find((item) => item.name === name);
          return `<td class="n">${count === undefined ? "" : escapeHtml(count.value)}</td>`;
        }).join("")
      }</tr>`
    ).join("")
  }</tbody></table></div>`;
  const suites = input.suites.map((suite) =>
    `<section class="suite"><h2>${escapeHtml(suite.suite)}</h2>${
      suite.runs.map((run) =>
        `<article class="call outcome-${verdictOutcome(run)}" data-run="${escapeHtml(run.name)}"><header>` +
        `<span class="badge">${escapeHtml(run.outcome.toUpperCase())}</span> ${escapeHtml(run.name)}` +
        `<span class="call-id">${escapeHtml(run.kind)}</span></header>` +
        (run.detail ? `<p>${escapeHtml(run.detail)}</p>` : "") +
        (run.trace ? renderTrace(run.trace) : "") +
        `</article>`
      ).join("")
    }</section>`
  ).join("\n");
  return htmlDocument(input.title, `<h1>${escapeHtml(input.title)}</h1>\n${table}\n${suites}`);
}
