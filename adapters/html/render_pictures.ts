/**
 * The pictures every pab page draws: a call's decision card (outcome, reasons,
 * vouching sources, notes, the way to yes) and the label over time. Pure
 * functions from views to HTML text; every value goes through
 * {@linkcode escapeHtml}.
 *
 * The playground ships these functions' source text to the browser
 * ({@linkcode PICTURE_FUNCTIONS}), so the page and the reports draw the same
 * pictures with the same code: each function refers only to the others by
 * name, and to nothing else.
 *
 * @module
 */
import { escapeHtml } from "./escape_html.ts";
import type { CallView, TimelineStep, TraceView } from "./report_view.ts";

/**
 * An argument value as one line: strings quoted, anything else as JSON, long
 * values cut with an ellipsis. Not escaped (the callers escape).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { showValue } from "./render_pictures.ts";
 * assert.equal(showValue("eve@attacker.example"), "'eve@attacker.example'");
 * assert.equal(showValue({ a: [1] }), '{"a":[1]}');
 * assert.equal(showValue("x".repeat(200)).length, 122); // 121 characters and an ellipsis
 * ```
 */
export function showValue(value: unknown): string {
  const text = typeof value === "string" ? `'${value}'` : JSON.stringify(value) ?? String(value);
  return text.length > 122 ? `${text.slice(0, 121)}…` : text;
}

/**
 * One call's decision card.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderCall } from "./render_pictures.ts";
 * const html = renderCall({
 *   id: "c2", tool: "send_email", args: { to: "<b>eve</b>" }, outcome: "block",
 *   reasons: [{ code: "untrusted-argument", message: "to='<b>eve</b>' appears only in untrusted input" }],
 *   vouching: [], notes: [], wayToYes: "way to yes: none in this policy",
 * });
 * assert.match(html, /class="call outcome-block"/);
 * assert.ok(html.includes("&lt;b&gt;eve&lt;/b&gt;") && !html.includes("<b>eve"));
 * ```
 */
export function renderCall(call: CallView, actions = ""): string {
  const args = Object.entries(call.args).map(([name, value]) =>
    `<span class="arg"><span class="arg-name">${escapeHtml(name)}</span>=${escapeHtml(showValue(value))}</span>`
  ).join(", ");
  const list = (items: readonly string[], kind: string) =>
    items.length ? `<ul class="${kind}">${items.map((item) => `<li>${item}</li>`).join("")}</ul>` : "";
  const reasons = call.reasons.map((reason) =>
    `<span class="code">${escapeHtml(reason.code)}</span> ${escapeHtml(reason.message)}`
  );
  const vouching = call.vouching.map((vouch) =>
    `<span class="arg-name">${escapeHtml(vouch.argument)}</span>=${escapeHtml(showValue(vouch.value))} ${
      vouch.sources.length
        ? `comes from ${vouch.sources.map((source) => `<span class="source">${escapeHtml(source)}</span>`).join(", ")}`
        : "is on the allow list"
    }`
  );
  const notes = call.notes.map((note) =>
    `<span class="code">${escapeHtml(note.code)}</span> ${escapeHtml(note.message)}`
  );
  return `<article class="call outcome-${escapeHtml(call.outcome)}" data-call="${escapeHtml(call.id)}">` +
    `<header><span class="badge">${escapeHtml(call.outcome.toUpperCase())}</span> ` +
    `<code class="tool">${escapeHtml(call.tool)}</code>(${args})` +
    `<span class="call-id">${escapeHtml(call.id)}${call.actor ? ` · wanted by ${escapeHtml(call.actor)}` : ""}</span>` +
    `</header>` +
    (reasons.length ? `<h4>Why not yes</h4>${list(reasons, "reasons")}` : "") +
    (vouching.length ? `<h4>Vouching sources</h4>${list(vouching, "vouching")}` : "") +
    (call.waived?.length ? `<h4>Waived</h4>${list(call.waived.map((line) => escapeHtml(line)), "waived")}` : "") +
    (notes.length ? `<h4>Notes</h4>${list(notes, "notes")}` : "") +
    (call.wayToYes ? `<p class="way-to-yes">${escapeHtml(call.wayToYes)}</p>` : "") +
    (call.status ? `<p class="status">${escapeHtml(call.status)}</p>` : "") +
    actions +
    `</article>`;
}

/**
 * The label over time: one box per event, coloured by the label's trust, with
 * the label written in it and each call's outcome marked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderTimeline } from "./render_pictures.ts";
 * const html = renderTimeline([
 *   { event: "user message", label: "<all | trusted>", trust: "trusted" },
 *   { event: "read_inbox returned", label: "<all | suspicious>", trust: "suspicious" },
 * ]);
 * assert.equal(html.match(/<li /g)?.length, 2);
 * assert.match(html, /trust-suspicious/);
 * ```
 */
export function renderTimeline(steps: readonly TimelineStep[]): string {
  const items = steps.map((step, index) =>
    `<li class="step trust-${escapeHtml(step.trust)}${step.outcome ? ` outcome-${escapeHtml(step.outcome)}` : ""}">` +
    `<span class="step-index">${index + 1}</span>` +
    `<span class="step-event">${escapeHtml(step.event)}</span>` +
    `<span class="step-label">${escapeHtml(step.label)}</span>` +
    (step.outcome ? `<span class="badge">${escapeHtml(step.outcome.toUpperCase())}</span>` : "") +
    `</li>`
  );
  return `<ol class="timeline" aria-label="label over time">${items.join("")}</ol>`;
}

/**
 * Counts of outcomes, as a line: `3 calls: 1 allowed, 1 to confirm, 1 blocked`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outcomeSummary } from "./render_pictures.ts";
 * assert.equal(outcomeSummary(["allow", "block", "confirm"]), "3 calls: 1 allowed, 1 to confirm, 1 blocked");
 * ```
 */
export function outcomeSummary(outcomes: readonly string[]): string {
  const count = (outcome: string) => outcomes.filter((item) => item === outcome).length;
  return `${outcomes.length} call${outcomes.length === 1 ? "" : "s"}: ${count("allow")} allowed, ` +
    `${count("confirm")} to confirm, ${count("block")} blocked`;
}

/**
 * One trace: a heading, its label over time, and every call's card.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderTrace } from "./render_pictures.ts";
 * const html = renderTrace({ file: "a<b>.jsonl", trace: "t", calls: [], timeline: [] });
 * assert.match(html, /a&lt;b&gt;\.jsonl/);
 * ```
 */
export function renderTrace(trace: TraceView): string {
  return `<section class="trace"><h2>${escapeHtml(trace.file)} <span class="trace-id">${
    escapeHtml(trace.trace)
  }</span></h2>` +
    `<p class="summary">${escapeHtml(outcomeSummary(trace.calls.map((call) => call.outcome)))}</p>` +
    `<h3>Label over time</h3>${renderTimeline(trace.timeline)}` +
    `<h3>Calls</h3>${trace.calls.map((call) => renderCall(call)).join("")}</section>`;
}

/** The functions above and their helper, in an order the browser can define them in. */
export const PICTURE_FUNCTIONS: readonly ((...args: never[]) => unknown)[] = Object.freeze([
  escapeHtml,
  showValue,
  renderCall,
  renderTimeline,
  outcomeSummary,
  renderTrace,
]);
