/**
 * `pab generate`: draft a policy from tool definitions.
 *
 * @module
 */
import { IoError } from "../shell/cli_error.ts";
import type { Command } from "../shell/command.ts";
import { defineCommand } from "../shell/define_command.ts";
import { draftPolicy } from "../draft/draft_policy.ts";
import { escapeControl } from "../io/escape_text.ts";
import type { Io } from "../io/io.ts";
import { lintPolicyText } from "../policy/lint_policy.ts";
import { listMcpServerTools } from "../mcp/mcp_tools.ts";
import { DEFAULT_MAX_BYTES, readInputText } from "../io/read_input.ts";
import { readToolDefinitions } from "../draft/tool_definitions.ts";
import { writeOutputFile } from "../io/write_output.ts";
import { parseJson } from "../../json/mod.ts";

/**
 * `pab generate`: read tool definitions (a file, standard input, or a running
 * MCP server) and print a draft policy with explained, conservative defaults.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateCommand } from "./generate.ts";
 * import { memoryIo } from "../io/memory_io.ts";
 * const memory = memoryIo({ stdin: '{"tools":[{"name":"send_email","inputSchema":{"properties":{"to":{"type":"string"}}}}]}' });
 * assert.equal(await generateCommand.run(["-"], memory.io), 0);
 * assert.match(memory.stdout(), /to: \{ require: trusted, on_violation: confirm \}/);
 * ```
 */
export const generateCommand: Command = defineCommand({
  name: "generate",
  summary: "Draft a policy from tool definitions (MCP tools/list, OpenAI tools, an AgentDojo suite)",
  description: `Draft a policy from tool definitions, every line explained in a comment, and
print it (or write it to a new file with --out). It reads what each tool says
about itself (MCP annotations, description, output schema, parameters' JSON
Schema), never a list of known tool names:

  - output: untrusted for the open world (openWorldHint, a URL parameter, a
    description of the web); trusted with trusted_fields (only ids, times,
    amounts, state flags vouch) for records others write into (mail,
    messages, files, events, transactions, reviews); trusted for a
    closed-world read that names nothing others write;
  - every argument of a tool that changes state is a selector (require:
    trusted, on_violation: confirm), a credential (require: trusted), content
    (embedded: trusted) or an option the schema bounds (allow: its values);
  - on_tainted: pinned for tools that change state (asks once untrusted input
    was read only if some argument has no rule), confirm for tools that
    destroy (destructiveHint, a delete/remove/cancel verb), allow for reads.
    MCP's defaults apply to hints a server leaves out (openWorldHint and
    destructiveHint true).

SOURCE is a JSON file (or "-" for standard input) holding an MCP server's
tools/list result ({"tools":[...]}), OpenAI tool definitions
([{"type":"function","function":{...}}]) or an AgentDojo suite.json. With
--server, SOURCE... is instead the command that starts an MCP server over
stdio, after "--":

  pab generate --server -- npx -y @modelcontextprotocol/server-memory

The draft passes pab lint; it is a start, not a review.`,
  options: {
    out: {
      type: "string",
      value: "FILE",
      description: "Write the draft to FILE, a new file (never over one, never through a\n" +
        "symbolic link); deno task pab may write only under /tmp/pab",
    },
    server: {
      type: "boolean",
      description: "Start SOURCE... as an MCP server and ask it for its tools; needs\n" +
        "--allow-run and --allow-env, which deno task pab does not grant",
    },
    "max-bytes": {
      type: "integer",
      value: "N",
      default: DEFAULT_MAX_BYTES,
      description: "Refuse a SOURCE file larger than N bytes",
    },
  },
  arguments: {
    name: "SOURCE",
    min: 1,
    max: Infinity,
    missing: "name a file of tool definitions, or --server -- COMMAND",
  },
  exitCodes: "0 the draft was printed or written; 2 bad usage, or input that cannot be read.",
  async run(input, io) {
    const [first, ...rest] = input.positionals;
    let value: unknown;
    let source: string;
    if (input.flag("server")) {
      source = `MCP server "${input.positionals.join(" ")}"`;
      value = await listMcpServerTools(input.positionals);
    } else {
      if (rest.length) {
        throw new IoError(`Cannot read tool definitions: name one SOURCE file, got ${input.positionals.length}`);
      }
      source = first === "-" ? "standard input" : first;
      const text = await readInputText(first, io, {
        what: "tool definition file",
        maxBytes: input.integer("max-bytes"),
      });
      try {
        value = parseJson(text);
      } catch (error) {
        throw new IoError(
          `Cannot read tool definitions from "${first}": it is not JSON (${
            error instanceof Error ? error.message : error
          })`,
        );
      }
    }
    const { tools } = readToolDefinitions(value, source);
    const draft = draftPolicy(tools, source);
    const { issues } = lintPolicyText(draft, { source: "draft.yaml", format: "yaml" });
    if (issues.length) {
      throw new Error(
        `the draft does not pass pab lint: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}`,
      );
    }
    const out = input.string("out");
    if (out === undefined) {
      await io.stdout.write(draft);
      return 0;
    }
    await writeDraft(out, draft, io);
    await io.stderr.write(
      `wrote a draft policy for ${tools.length} tools to ${escapeControl(out)}; check it with pab lint ${
        escapeControl(out)
      }\n`,
    );
    return 0;
  },
});

function writeDraft(path: string, text: string, io: Io): Promise<void> {
  return writeOutputFile(path, text, io, {
    what: "the draft",
    example: "--out /tmp/pab/policy.yaml",
    alternative: "print the draft and redirect it",
  });
}
