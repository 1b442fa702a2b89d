/**
 * Make untrusted text safe to print on one line of a terminal report.
 *
 * @module
 */

// Controls (C0 with newline and ESC, DEL, C1), every invisible format character (bidirectional overrides and marks,
// zero-width spaces and joiners, the byte order mark, soft hyphen, tag characters), the Unicode line and paragraph
// separators, and halves of a surrogate pair left alone: each can make one line, or one name, look like another.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Escape every control character in `text`: newline, carriage return and tab
 * as `\n`, `\r`, `\t`, the rest (ESC, DEL, C1 controls, Unicode line
 * separators, bidirectional overrides, zero-width and other invisible format
 * characters, lone surrogates) as `\u{XX}`. A value escaped this way cannot
 * start a new line, move the cursor, recolour a report, or pass for another
 * name (`send\u{200b}_email` is not `send_email`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeControl } from "./escape_text.ts";
 * assert.equal(escapeControl("c1\nALLOW   x"), "c1\\nALLOW   x");
 * assert.equal(escapeControl("\x1b[32mok"), "\\u{1b}[32mok");
 * assert.equal(escapeControl("send\u200b_email"), "send\\u{200b}_email");
 * ```
 */
export function escapeControl(text: string): string {
  return text.replace(UNSAFE, (char) => NAMED[char] ?? `\\u{${char.codePointAt(0)!.toString(16)}}`);
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
