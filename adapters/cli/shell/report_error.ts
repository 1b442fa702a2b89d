/**
 * Turn any error a command meets into a message on stderr and exit code 2,
 * never a stack trace.
 *
 * @module
 */
import { PabError } from "../../../core/mod.ts";
import { UsageError } from "./cli_error.ts";
import { escapeControl, escapeLines } from "../io/escape_text.ts";
import type { Io } from "../io/io.ts";

/**
 * Print `error` on stderr the way pab reports problems and return exit code 2.
 * A usage error also says where the usage is; an error pab did not expect
 * says so, with its message only. Control characters in the message (from a
 * file name, a key or a value) are escaped, so they cannot forge lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportError } from "./report_error.ts";
 * import { UsageError } from "./cli_error.ts";
 * import { memoryIo } from "../io/memory_io.ts";
 * const memory = memoryIo();
 * assert.equal(await reportError(new UsageError("missing --policy FILE", "check"), memory.io), 2);
 * assert.equal(memory.stderr(), 'error: missing --policy FILE\nRun "pab check --help" for usage.\n');
 * ```
 */
export async function reportError(error: unknown, io: Pick<Io, "stderr">): Promise<number> {
  await io.stderr.write(`error: ${reportText(error)}\n`);
  if (error instanceof UsageError) {
    await io.stderr.write(`Run "${error.command ? `pab ${error.command} --help` : "pab --help"}" for usage.\n`);
  }
  return 2;
}

/**
 * The text pab prints for an error, control characters escaped. A policy
 * error's issues are rendered one per line from its data, so a key holding a
 * newline stays on its line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportText } from "./report_error.ts";
 * import { UsageError } from "./cli_error.ts";
 * assert.equal(reportText(new UsageError("Cannot read \x1b[2J")), "Cannot read \\u{1b}[2J");
 * assert.equal(reportText(new RangeError("boom")), "pab failed unexpectedly: RangeError: boom (please report this)");
 * ```
 */
export function reportText(error: unknown): string {
  if (error instanceof PabError) {
    const issues = (error as { issues?: unknown }).issues;
    const source = (error as { source?: unknown }).source;
    if (Array.isArray(issues) && typeof source === "string") return policyIssuesText(source, issues);
    return escapeLines(error.message);
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `pab failed unexpectedly: ${escapeControl(message)} (please report this)`;
}

/**
 * A policy's issues as pab prints them, one per line, control characters escaped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { policyIssuesText } from "./report_error.ts";
 * assert.equal(
 *   policyIssuesText("p.yaml", [{ path: "tools.x.alow", message: 'unknown key "alow"', hint: 'did you mean "allow"?' }]),
 *   'Cannot load policy "p.yaml": 1 issue\n  - at tools.x.alow: unknown key "alow" (did you mean "allow"?)',
 * );
 * ```
 */
export function policyIssuesText(
  source: string,
  issues: readonly { readonly path?: string; readonly message?: string; readonly hint?: string }[],
): string {
  const count = issues.length === 1 ? "1 issue" : `${issues.length} issues`;
  const lines = issues.map((issue) =>
    `  - at ${escapeControl(issue.path || "(top level)")}: ${escapeControl(String(issue.message))} (${
      escapeControl(String(issue.hint))
    })`
  );
  return [`Cannot load policy "${escapeControl(source)}": ${count}`, ...lines].join("\n");
}
