/**
 * `pab check --policy FILE TRACE...`: replay recorded conversations through a
 * policy and print pab's decision for every tool call.
 *
 * @module
 */
import { TraceError } from "../trace/mod.ts";
import type { ApproverRule, CastFunction, GuardOptions, Policy } from "../../guard/mod.ts";
import { readTrace, type ReplayedCall, replayTrace, type Trace } from "../trace/mod.ts";
import { IoError, UsageError } from "./cli_error.ts";
import type { Command } from "./command.ts";
import { formatCall } from "./format_call.ts";
import { fileProblem, type Io } from "./io.ts";
import { loadPolicyFile, readHint } from "./load_policy.ts";
import { parseArgs } from "./parse_args.ts";
import { reportError } from "./report_error.ts";
import { type Style, styleFor } from "./style.ts";

const HELP = `Usage: pab check --policy FILE [--json] TRACE...

Replay recorded conversations through a policy and print pab's decision for
every tool call in them, as a guard would have decided it live.

TRACE is a pab trace (JSONL with a {"pab":"trace",...} header; see
traces/README.md) or an OpenAI chat-completions message log (a JSON array of
messages, or an object with "messages"). The format is told from the content.

Output: one line per tool call, then the decision's reasons, indented:

  ALLOW   TRACE#ID TOOL(ARGS)
  BLOCK   TRACE#ID TOOL(ARGS)
    - [CODE] why, naming the argument, the value and the source
    way to yes: what would make the call allowed, or why nothing can

TRACE is the trace's id (a pab trace's header id, or the file name of an
OpenAI log) and ID the tool call's own id. CONFIRM means the user may allow the
call; BLOCK means only an approver, or a different situation, can.

Options:
  -p, --policy FILE  The policy (.yaml, .yml, .json or .jsonc); required
      --json         Print {"schemaVersion":1,"calls":[{"trace","id","tool",
                     "args","decision","reasons":[{"code","message"}]}]}
  -h, --help         Show this help

Approver rules and casts are code, not policy: pab check lists an approver
named in the policy as a way to yes without asking it, and settles data from an
unlabelled tool with the strictest label (nobody may read it; suspicious).

Exit codes: 0 every call is allowed; 1 a call is blocked or needs confirmation;
2 bad usage, or a policy, trace or file that cannot be read.
`;

/**
 * `pab check`: replay traces through a policy and print each call's decision.
 *
 * @example
 * ```ts
 * import { checkCommand } from "./check.ts";
 * import { memoryIo } from "./memory_io.ts";
 * const memory = memoryIo({
 *   files: {
 *     "p.yaml": "version: 1\ntools:\n  read_inbox: {output: untrusted}\n",
 *     "t.jsonl": '{"pab":"trace","schemaVersion":1,"id":"t"}\n{"type":"call","id":"c1","tool":"read_inbox","args":{}}\n',
 *   },
 * });
 * console.log(await checkCommand.run(["--policy", "p.yaml", "t.jsonl"], memory.io)); // 0
 * console.log(memory.stdout()); // "ALLOW   t#c1 read_inbox()\n1 call in 1 trace: 1 allowed\n"
 * ```
 */
export const checkCommand: Command = {
  name: "check",
  summary: "Replay traces through a policy and print the decision for every tool call",
  help: HELP,
  run: check,
};

async function check(args: string[], io: Io): Promise<number> {
  try {
    const { values, positionals } = parseArgs(args, {
      policy: { type: "string", short: "p" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    }, "check");
    if (values.help) {
      await io.stdout.write(HELP);
      return 0;
    }
    if (typeof values.policy !== "string") throw new UsageError("missing --policy FILE", "check");
    if (!positionals.length) throw new UsageError("name at least one trace file", "check");
    // Read everything first, so that bad input prints nothing on stdout.
    const policy = await loadPolicyFile(values.policy, io);
    const traces: Trace[] = [];
    for (const path of positionals) traces.push(await loadTrace(path, io));
    const calls: ReplayedCall[] = [];
    for (const trace of traces) {
      calls.push(...(await replayTrace(trace, policy, { guard: offlineGuardOptions(policy) })).calls);
    }
    await io.stdout.write(values.json ? renderJson(calls) : renderText(calls, traces.length, styleFor(io)));
    return calls.every((call) => call.decision === "allow") ? 0 : 1;
  } catch (error) {
    return await reportError(error, io);
  }
}

async function loadTrace(path: string, io: Io): Promise<Trace> {
  let text: string;
  try {
    text = await io.readTextFile(path);
  } catch (error) {
    throw new IoError(`Cannot read trace "${path}": ${fileProblem(error)} (${readHint(error)})`);
  }
  try {
    return readTrace(text, { source: path });
  } catch (error) {
    if (error instanceof TraceError) throw error;
    throw new TraceError(`Cannot read trace ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Approver rules and casts live in code, so a replay from the command line
 * registers stand-ins: every approver would agree (it only shapes the way to
 * yes; a replay asks for no rulings), and every cast fails, so unlabelled data
 * that reaches a check is reported as such (`unlabelled`) instead of guessed.
 */
function offlineGuardOptions(policy: Policy): GuardOptions {
  const approvers: Record<string, ApproverRule> = {};
  for (const name of Object.keys(policy.approvers)) approvers[name] = () => true;
  const casts: Record<string, CastFunction> = {};
  for (const spec of Object.values(policy.casts)) {
    casts[spec.cast] = () => {
      throw new Error("casts are code registered by the agent, and pab check cannot run them");
    };
  }
  return { approvers, casts };
}

function renderText(calls: readonly ReplayedCall[], traceCount: number, style: Style): string {
  const lines: string[] = [];
  const counts = { allow: 0, confirm: 0, block: 0 };
  for (const call of calls) {
    counts[call.decision]++;
    const word = call.decision.toUpperCase().padEnd(7);
    const painted = call.decision === "allow"
      ? style.green(word)
      : call.decision === "confirm"
      ? style.yellow(word)
      : style.red(word);
    lines.push(`${painted} ${call.trace}#${call.id} ${formatCall(call.tool, call.args)}`);
    for (const line of call.explanation.split("\n").slice(1)) lines.push(`  ${line}`);
  }
  const parts = [
    counts.allow ? `${counts.allow} allowed` : "",
    counts.confirm ? `${counts.confirm} to confirm` : "",
    counts.block ? `${counts.block} blocked` : "",
  ].filter(Boolean);
  lines.push(
    `${plural(calls.length, "call")} in ${plural(traceCount, "trace")}${parts.length ? `: ${parts.join(", ")}` : ""}`,
  );
  return lines.join("\n") + "\n";
}

function renderJson(calls: readonly ReplayedCall[]): string {
  const data = {
    schemaVersion: 1,
    calls: calls.map((call) => ({
      trace: call.trace,
      id: call.id,
      tool: call.tool,
      args: call.args,
      decision: call.decision,
      reasons: call.reasons.map((reason) => ({ code: reason.code, message: reason.message })),
    })),
  };
  return JSON.stringify(data, null, 2) + "\n";
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}
