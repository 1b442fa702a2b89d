/**
 * The shell of a standalone pab HTML page: doctype, charset, a strict
 * Content-Security-Policy (no scripts, no fetches), and the report style.
 *
 * @module
 */
import { escapeHtml } from "./escape_html.ts";
import { REPORT_CSS } from "./report_style.ts";

/** The page's CSP: styles inline, nothing else at all; the page runs no script and loads nothing. */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/**
 * A complete HTML document around `body` (HTML text the caller escaped).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { htmlDocument } from "./html_document.ts";
 * const page = htmlDocument("<x> & y", "<p>hi</p>");
 * assert.match(page, /^<!doctype html>/);
 * assert.match(page, /<title>&lt;x&gt; &amp; y<\/title>/);
 * assert.match(page, /Content-Security-Policy" content="default-src &#39;none&#39;/);
 * ```
 */
export function htmlDocument(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(REPORT_CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}
