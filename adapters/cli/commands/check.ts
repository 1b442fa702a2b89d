/**
 * `pab check --policy FILE TRACE...`: replay recorded conversations through a
 * policy and print pab's decision for every tool call.
 *
 * @module
 */
import { PabError } from "../../../core/mod.ts";
import type { ApproverRule, CastFunction, GuardOptions, Policy } from "../../../guard/mod.ts";
import type { TraceView } from "../../html/mod.ts";
import { replayTrace } from "../../trace/mod.ts";
import { UsageError } from "../shell/cli_error.ts";
import type { Command } from "../shell/command.ts";
import { defineCommand } from "../shell/define_command.ts";
import { escapeLines } from "../io/escape_text.ts";
import { isStdin } from "../io/io.ts";
import { loadPolicyFile } from "../policy/load_policy.ts";
import { loadTrace } from "../replay/load_trace.ts";
import { type FailedFile, renderCheckJson, renderCheckText } from "../replay/render_check.ts";
import { DEFAULT_MAX_BYTES, expandInputs } from "../io/read_input.ts";
import { type ReplayedFile, replayTraceFile } from "../replay/stream_trace.ts";
import { styleFor } from "../io/style.ts";
import { writeOutputFile } from "../io/write_output.ts";
import { policyOption } from "../policy/policy_option.ts";

/**
 * `pab check`: replay traces through a policy and print each call's decision.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkCommand } from "./check.ts";
 * import { memoryIo } from "../io/memory_io.ts";
 * const memory = memoryIo({
 *   files: {
 *     "p.yaml": "version: 1\ntools:\n  read_inbox: {output: untrusted}\n",
 *     "t.jsonl": '{"pab":"trace","schemaVersion":1,"id":"t"}\n{"type":"call","id":"c1","tool":"read_inbox","args":{}}\n',
 *   },
 * });
 * assert.equal(await checkCommand.run(["--policy", "p.yaml", "t.jsonl"], memory.io), 0);
 * assert.equal(memory.stdout(), "ALLOW   t#c1 read_inbox()\n1 call in 1 trace: 1 allowed\n");
 * ```
 */
export const checkCommand: Command = defineCommand({
  name: "check",
  summary: "Replay traces through a policy and print the decision for every tool call",
  description: `Replay recorded conversations through a policy and print pab's decision for
every tool call in them, as a guard would have decided it live.

TRACE is a pab trace (JSONL with a {"pab":"trace",...} header; see
traces/README.md), read and replayed line by line, or a log read whole: OpenAI
chat completions (an array of messages, or {"messages":[...]}), the OpenAI
Responses API, Anthropic Messages, a Claude Code transcript (the JSONL files
under ~/.claude/projects/), or MCP traffic (JSON-RPC messages between a host
and a server, one per line). The format is told from the content.
TRACE may be "-" or /dev/stdin (standard input), a folder (every .jsonl and
.json file under it), or a quoted glob such as 'traces/**/*.jsonl'.

Output: one line per tool call, then the decision's reasons, indented:

  ALLOW   TRACE#ID TOOL(ARGS)
  BLOCK   TRACE#ID TOOL(ARGS)
    - [CODE] why, naming the argument, the value and the source
    + ARG='VALUE' comes from SOURCE (the sources that vouched for a value)
    note [CODE]: a remark that did not change the decision
    way to yes: what would make the call allowed, or why nothing can

TRACE is the trace's id (a pab trace's header id, or the file name of an
OpenAI log) and ID the tool call's own id. CONFIRM means the user may allow the
call; BLOCK means only an approver, or a different situation, can. Control
characters in ids and values are shown escaped (\\n, \\u{1b}).`,
  options: {
    policy: policyOption('The policy (.yaml, .yml, .json or .jsonc, or "-" for standard input)'),
    json: {
      type: "boolean",
      description: 'Print {"schemaVersion":1,"policy","calls":[{"trace","file","line","id",\n' +
        '"tool","args","decision","reasons","vouching","notes","wayToYes"}],"summary"}',
    },
    html: {
      type: "string",
      value: "FILE",
      description: "Also write a standalone HTML report (label over time, every call's card) to a new FILE\n" +
        "(deno task pab writes only under /tmp/pab)",
    },
    "max-bytes": {
      type: "integer",
      value: "N",
      default: DEFAULT_MAX_BYTES,
      description: "Refuse a policy or trace larger than N bytes",
    },
  },
  arguments: { name: "TRACE", min: 1, max: Infinity, missing: "name at least one trace file" },
  notes: `Approver rules and casts are code, not policy: pab check lists an approver
named in the policy as a way to yes without asking it, and settles data from an
unlabelled tool with the strictest label (nobody may read it; suspicious).`,
  exitCodes: `0 every call is allowed; 1 a call is blocked or needs confirmation;
2 bad usage, or a policy, trace or file that cannot be read (a file found in
a folder or by a glob that cannot be read is named on stderr with its error
code, and the other traces are still reported).`,
  async run(input, io) {
    const policyPath = input.string("policy")!;
    const maxBytes = input.integer("max-bytes");
    const paths = await expandInputs(input.positionals, io, "traces", [".jsonl", ".json"]);
    if (isStdin(policyPath) && paths.some(isStdin)) {
      throw new UsageError("the policy and a trace cannot both come from standard input", "check");
    }
    // Replay everything before printing, so that bad input prints nothing on stdout. Only the calls' decisions
    // are kept: each trace is read and replayed line by line, never held whole (except for --html, whose report
    // also draws the label over time, and so reads each trace whole).
    const policy = await loadPolicyFile(policyPath, io, maxBytes);
    const guard = offlineGuardOptions(policy);
    const html = input.string("html");
    const replays: ReplayedFile[] = [];
    // A file found in a folder or by a glob that cannot be read is reported on its own, and the others are still
    // replayed and reported; a file named on the command line stops the check (nothing printed on stdout).
    const failed: FailedFile[] = [];
    const named = new Set(input.positionals);
    const each = async (path: string, task: () => Promise<void>) => {
      try {
        await task();
      } catch (error) {
        if (!(error instanceof PabError) || named.has(path)) throw error;
        failed.push({ file: path, code: error.code, message: error.message });
      }
    };
    if (html === undefined) {
      for (const path of paths) {
        await each(path, async () => void replays.push(await replayTraceFile(path, io, policy, { maxBytes, guard })));
      }
    } else {
      // The HTML report's modules load only for --html.
      const { renderCheckReport, traceView } = await import("../../html/mod.ts");
      const views: TraceView[] = [];
      for (const path of paths) {
        await each(path, async () => {
          const { trace, lines } = await loadTrace(path, io, maxBytes);
          const replay = await replayTrace(trace, policy, { guard });
          const view = await traceView(path, trace, policy, guard);
          replays.push({ file: path, lines, replay });
          views.push(view);
        });
      }
      await writeOutputFile(html, renderCheckReport({ policy: policyPath, traces: views }), io, {
        what: "the HTML report",
        example: "--html /tmp/pab/report.html",
      });
    }
    const report = { policyPath, policy, replays, failed };
    await io.stdout.write(input.flag("json") ? renderCheckJson(report) : renderCheckText(report, styleFor(io)));
    // A file found in a folder is named by whoever wrote the folder: escaped like every other error.
    for (const { code, message } of failed) await io.stderr.write(`error: ${escapeLines(message)} [${code}]\n`);
    if (failed.length) return 2;
    return replays.every(({ replay }) => replay.calls.every((call) => call.decision === "allow")) ? 0 : 1;
  },
});

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
