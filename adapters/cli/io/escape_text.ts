/**
 * Make untrusted text safe to print on one line of a terminal report.
 *
 * @module
 */

// C0 controls (newline and ESC included), DEL, C1 controls, and the Unicode line, paragraph and bidirectional
// formatting characters that can make one line look like another.
// deno-lint-ignore no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Escape every control character in `text`: newline, carriage return and tab
 * as `\n`, `\r`, `\t`, the rest (ESC, DEL, C1 controls, Unicode line
 * separators and bidirectional overrides) as `\u{XX}`. A value escaped this
 * way cannot start a new line, move the cursor or recolour a report.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeControl } from "./escape_text.ts";
 * assert.equal(escapeControl("c1\nALLOW   x"), "c1\\nALLOW   x");
 * assert.equal(escapeControl("\x1b[32mok"), "\\u{1b}[32mok");
 * ```
 */
export function escapeControl(text: string): string {
  return text.replace(UNSAFE, (char) => NAMED[char] ?? `\\u{${char.charCodeAt(0).toString(16)}}`);
}

/**
 * Escape each line of a multi-line message on its own, keeping its line
 * breaks (for messages pab composed itself, whose parts may be untrusted).
 * A carriage return or other control character inside a line is escaped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeLines } from "./escape_text.ts";
 * assert.equal(escapeLines("one\n  two\r\x1b[2K"), "one\n  two\\r\\u{1b}[2K");
 * ```
 */
export function escapeLines(text: string): string {
  return text.split("\n").map(escapeControl).join("\n");
}
