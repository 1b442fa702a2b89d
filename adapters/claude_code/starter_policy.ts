/**
 * A starter policy for Claude Code's own tools, to copy and adapt: what each
 * tool reads is labelled, `Bash`'s URLs, hosts and paths (found in its shell
 * words) and the file tools' paths (matched with the payload's `cwd`) must
 * come from trusted text, such as the user's prompt. `pab hook claude-code
 * starter-policy` prints it.
 *
 * @module
 */

/**
 * The starter policy's YAML text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { STARTER_POLICY } from "./starter_policy.ts";
 * const policy = parsePolicy(STARTER_POLICY, { source: "claude-code.policy.yaml" });
 * assert.ok(Object.hasOwn(policy.tools, "Bash"));
 * ```
 */
export const STARTER_POLICY: string =
  `# pab's starter policy for Claude Code's tools (pab hook claude-code starter-policy).
# Where pab has no objection, Claude Code's own permission flow (its allow, ask
# and deny rules and its prompt) decides, as without pab. pab adds: deny when a
# value comes only from what a tool read (a web page, a file, a subagent), and
# ask (on_violation/on_tainted: confirm) where the user should look.
version: 1
# A tool this policy does not name (an MCP tool: mcp__SERVER__TOOL) is
# unlabelled: its output is the least trusted, and after untrusted input it
# needs a confirmation. Name your MCP tools below to say what they read.
default:
  on_tainted: confirm
tools:
  # Files of the project may hold instructions written by anyone: untrusted.
  Read: { output: untrusted, on_tainted: allow }
  Glob: { output: trusted, on_tainted: allow }
  Grep: { output: untrusted, on_tainted: allow }
  LS: { output: trusted, on_tainted: allow }
  TodoWrite: { output: trusted, on_tainted: allow }
  # Writes stay in the project: the file (resolved with the payload's cwd,
  # relative inside it) must be one the user named or a trusted listing
  # found; any other file is asked about. Editing after reading files is the
  # normal course of work, so a tainted context alone does not ask.
  Edit:
    output: trusted
    on_tainted: allow
    args:
      path: { require: trusted, on_violation: confirm }
  MultiEdit:
    output: trusted
    on_tainted: allow
    args:
      path: { require: trusted, on_violation: confirm }
  Write:
    output: trusted
    on_tainted: allow
    args:
      path: { require: trusted, on_violation: confirm }
  NotebookEdit:
    output: trusted
    on_tainted: allow
    args:
      path: { require: trusted, on_violation: confirm }
  # The web is written by strangers.
  WebFetch:
    output: untrusted
    on_tainted: allow
    args:
      url: { require: trusted, on_violation: confirm }
  WebSearch:
    output: untrusted
    on_tainted: allow
  # A subagent reads what it likes: its report is untrusted.
  Task:
    output: untrusted
    on_tainted: confirm
  # A shell command: each URL, host and path it names (read from its shell
  # words, paths resolved with cwd) is checked on its own, and is asked about
  # unless trusted text holds it. Once anything untrusted was read (a file, a
  # page), every command is asked about: a shell runs whatever it is told.
  Bash:
    output: untrusted
    on_tainted: confirm
    args:
      urls: { require: trusted, on_violation: confirm }
      hosts: { require: trusted, on_violation: confirm }
      paths: { require: trusted, on_violation: confirm }
`;
