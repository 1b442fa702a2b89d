/**
 * The style sheet of every pab page (reports and playground): plain CSS, no
 * fonts or images to fetch.
 *
 * @module
 */

/**
 * The CSS for the pictures of `render_pictures.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { REPORT_CSS } from "./report_style.ts";
 * assert.match(REPORT_CSS, /\.outcome-block/);
 * assert.doesNotMatch(REPORT_CSS, /url\(|@import/); // nothing to fetch
 * ```
 */
export const REPORT_CSS = `
:root { --allow: #1f7a3a; --confirm: #a86400; --block: #b3261e; --ink: #1d1d1f; --muted: #5f6368; --line: #d9dce1;
  --trusted: #e3f4e8; --attested: #fff3d6; --suspicious: #fde4e1; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 0; background: #f6f7f9; }
main { max-width: 1200px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 22px; margin: 8px 0 4px; } h2 { font-size: 18px; margin: 24px 0 4px; } h3 { font-size: 15px; margin: 16px 0 6px; color: var(--muted); }
h4 { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 10px 0 2px; }
code, .arg, .step-label, .source, .code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 13px; }
.summary { color: var(--muted); margin: 0 0 8px; }
.trace-id, .call-id { color: var(--muted); font-weight: normal; font-size: 13px; margin-left: 8px; }
.call { background: #fff; border: 1px solid var(--line); border-left: 6px solid var(--muted); border-radius: 6px; padding: 10px 14px; margin: 10px 0; overflow-wrap: anywhere; }
.call header { font-size: 15px; }
.call ul { margin: 2px 0; padding-left: 20px; } .call li { margin: 2px 0; }
.badge { display: inline-block; font: 600 12px/1 system-ui, sans-serif; color: #fff; background: var(--muted); border-radius: 4px; padding: 4px 7px; letter-spacing: .04em; }
.outcome-allow { border-left-color: var(--allow); } .outcome-allow .badge { background: var(--allow); }
.outcome-confirm { border-left-color: var(--confirm); } .outcome-confirm .badge { background: var(--confirm); }
.outcome-block { border-left-color: var(--block); } .outcome-block .badge { background: var(--block); }
.code { background: #eef0f3; border-radius: 3px; padding: 0 4px; }
.source { background: var(--trusted); border-radius: 3px; padding: 0 4px; }
.way-to-yes { margin: 8px 0 0; padding: 6px 10px; background: #eef4ff; border-radius: 4px; }
.status { margin: 8px 0 0; font-weight: 600; }
.timeline { display: flex; flex-wrap: wrap; gap: 6px; list-style: none; padding: 0; margin: 0; }
.step { display: flex; flex-direction: column; gap: 2px; min-width: 150px; max-width: 260px; padding: 6px 8px; border-radius: 6px; border: 1px solid var(--line); overflow-wrap: anywhere; }
.step .badge { align-self: flex-start; }
.step-index { font-size: 11px; color: var(--muted); } .step-event { font-weight: 600; }
.trust-trusted { background: var(--trusted); } .trust-attested { background: var(--attested); } .trust-suspicious { background: var(--suspicious); }
.counts-scroll { overflow-x: auto; max-width: 100%; } table.counts { border-collapse: collapse; background: #fff; } .counts th, .counts td { border: 1px solid var(--line); padding: 4px 10px; text-align: left; }
.counts td.n { text-align: right; font-variant-numeric: tabular-nums; }
`;
