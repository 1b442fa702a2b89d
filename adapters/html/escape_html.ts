/**
 * HTML escaping for every value pab puts in a page.
 *
 * @module
 */

/**
 * Escape text for an HTML element's content or a quoted attribute value:
 * `&`, `<`, `>`, `"` and `'` become entities, and control characters (other
 * than tab and newline) become visible `\u{...}` escapes, so attacker text
 * can neither open a tag nor hide in the page.
 *
 * Self-contained: the playground ships its source text to the browser.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeHtml } from "./escape_html.ts";
 * assert.equal(escapeHtml(`<img src=x onerror="alert('1')">&`), "&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;");
 * assert.equal(escapeHtml("a\u001b[31mb"), "a\\u{1b}[31mb");
 * ```
 */
export function escapeHtml(value: unknown): string {
  // deno-lint-ignore no-control-regex
  return String(value).replace(/[&<>"']|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, (char) => {
    switch (char) {
      case "&":
        return "&amp;";
      case "<":
        return "&lt;";
      case ">":
        return "&gt;";
      case '"':
        return "&quot;";
      case "'":
        return "&#39;";
      default:
        return `\\u{${char.charCodeAt(0).toString(16)}}`;
    }
  });
}
