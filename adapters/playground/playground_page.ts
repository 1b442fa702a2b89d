/**
 * The playground's static files: the page, its style sheet and its script.
 * The script imports the ESM bundle (`/pab.min.js`) and defines the pictures
 * of `adapters/html/` and the app of `playground_app.ts` from their source
 * text, so the page draws what the reports draw, with the same code.
 *
 * @module
 */
import { PICTURE_FUNCTIONS, REPORT_CSS } from "../html/mod.ts";
import { replayConversation, startPlayground } from "./playground_app.ts";

/** The CSP the playground is served with: its own script, style and data only. */
export const PLAYGROUND_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'";

/**
 * The page: two editors (policy, conversation), an example picker, and the
 * results (label over time, one card per call).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { playgroundHtml } from "./playground_page.ts";
 * assert.match(playgroundHtml(), /<script type="module" src="\/app\.js"><\/script>/);
 * assert.doesNotMatch(playgroundHtml(), /https?:\/\//); // offline: nothing from elsewhere
 * ```
 */
export function playgroundHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pab playground</title>
<link rel="stylesheet" href="/style.css">
<script type="module" src="/app.js"></script>
</head>
<body>
<main>
<header class="bar">
<h1>pab playground</h1>
<label>Example <select id="example"></select></label>
<button id="load" type="button">Load example</button>
<button id="run" type="button" class="primary">Decide</button>
</header>
<div class="panes">
<section class="editors">
<label for="policy">Policy (YAML, or JSONC starting with <code>{</code>)</label>
<textarea id="policy" spellcheck="false" rows="16"></textarea>
<label for="conversation">Conversation (a pab trace: one JSON event a line)</label>
<textarea id="conversation" spellcheck="false" rows="16"></textarea>
</section>
<section class="results">
<p id="error" class="error" role="alert" hidden></p>
<p id="summary" class="summary"></p>
<h3>Label over time</h3>
<div id="timeline"></div>
<h3>Calls: decisions, vouching sources, the way to yes</h3>
<div id="calls"></div>
</section>
</div>
</main>
</body>
</html>
`;
}

/**
 * The style sheet: the reports' style plus the editors'.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { playgroundCss } from "./playground_page.ts";
 * assert.match(playgroundCss(), /\.panes/);
 * ```
 */
export function playgroundCss(): string {
  return `${REPORT_CSS}
.bar { display: flex; flex-wrap: wrap; align-items: center; gap: 12px; }
.bar h1 { margin-right: auto; }
.panes { display: grid; grid-template-columns: minmax(320px, 5fr) 7fr; gap: 20px; margin-top: 12px; }
@media (max-width: 900px) { .panes { grid-template-columns: 1fr; } }
.editors { display: flex; flex-direction: column; gap: 6px; }
.editors label { font-weight: 600; font-size: 13px; color: var(--muted); }
textarea { width: 100%; font: 12px/1.4 ui-monospace, Menlo, Consolas, monospace; border: 1px solid var(--line); border-radius: 6px; padding: 8px; resize: vertical; }
button { font: 600 13px system-ui, sans-serif; border: 1px solid var(--line); background: #fff; border-radius: 6px; padding: 6px 12px; cursor: pointer; }
button.primary, .apply-ruling { background: #1a56db; border-color: #1a56db; color: #fff; }
.error { background: var(--suspicious); border: 1px solid var(--block); border-radius: 6px; padding: 8px 12px; white-space: pre-wrap; font-family: ui-monospace, monospace; font-size: 13px; }
.actions { margin: 8px 0 0; }
`;
}

/**
 * The page's module script: imports the bundle, defines the pictures and the
 * app from their source text, loads the examples and starts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { playgroundScript } from "./playground_page.ts";
 * const script = playgroundScript();
 * assert.match(script, /^import \* as pab from "\/pab\.min\.js";/);
 * assert.match(script, /function renderCall\(/);
 * assert.doesNotMatch(script, /\bimport\s*\(|https?:\/\//);
 * ```
 */
export function playgroundScript(): string {
  return [
    `import * as pab from "/pab.min.js";`,
    ...PICTURE_FUNCTIONS.map((fn) => fn.toString()),
    replayConversation.toString(),
    startPlayground.toString(),
    `const examples = await (await fetch("/examples.json")).json();`,
    `startPlayground(pab, document, examples);`,
    `document.body.dataset.ready = "true";`,
    "",
  ].join("\n");
}
