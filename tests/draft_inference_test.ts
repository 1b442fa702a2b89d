/**
 * `pab generate` reads what a tool says about itself: output trust from MCP
 * annotations, descriptions and output schemas; each argument of a tool that
 * changes state classified (selector, credential, content, option); and the
 * draft always lints and covers every such argument (properties).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { draftPolicy } from "../adapters/cli/draft/draft_policy.ts";
import { readOutputTrust } from "../adapters/cli/draft/draft_output.ts";
import { readArgument } from "../adapters/cli/draft/draft_arguments.ts";
import { lintPolicyText } from "../adapters/cli/policy/lint_policy.ts";
import { argumentCoverage } from "../adapters/cli/policy/lint_coverage.ts";
import { readToolDefinitions, type ToolDefinition } from "../adapters/cli/draft/tool_definitions.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";

const STRANGER_FIELDS = ["body", "subject", "sender", "from", "title", "description", "content", "author", "name"];

Deno.test("readOutputTrust() reads openWorldHint, URL parameters and web descriptions as untrusted", () => {
  const base = { name: "lookup", parameters: {} };
  assert.equal(readOutputTrust({ ...base, openWorld: true, description: "Get the balance" }).kind, "untrusted");
  assert.equal(readOutputTrust({ ...base, parameters: { page_url: "string" } }).kind, "untrusted");
  assert.equal(
    readOutputTrust({ ...base, parameters: { at: "string" }, schemas: { at: { type: "string", format: "uri" } } }).kind,
    "untrusted",
  );
  assert.equal(readOutputTrust({ ...base, description: "Search the web for a phrase" }).kind, "untrusted");
  assert.equal(
    readOutputTrust({ ...base, description: "List the invoices' totals", openWorld: false }).kind,
    "trusted",
  );
});

Deno.test("readOutputTrust() keeps only platform-written fields of an output schema", () => {
  const reading = readOutputTrust({
    name: "get_ticket",
    parameters: { ticket_id: "string" },
    description: "Get a support ticket",
    outputFields: {
      id: { type: "string" },
      status: { type: "string", enum: ["open", "closed"] },
      created_at: { type: "string", format: "date-time" },
      priority: { type: "integer" },
      customer_email: { type: "string" },
      subject: { type: "string" },
      body: { type: "string" },
    },
  });
  assert.equal(reading.kind, "fields");
  assert.deepEqual(reading.kind === "fields" && reading.trustedFields, ["id", "status", "created_at", "priority"]);
});

Deno.test("readOutputTrust() never trusts a field strangers write, whatever the description (property)", () => {
  fc.assert(
    fc.property(fc.string(), fc.subarray(STRANGER_FIELDS), (description, fields) => {
      const outputFields = Object.fromEntries(fields.map((field) => [field, { type: "string" }]));
      const reading = readOutputTrust({ name: "t", parameters: {}, description, outputFields });
      if (reading.kind === "fields") assert.ok(!reading.trustedFields.some((field) => STRANGER_FIELDS.includes(field)));
      if (fields.length) assert.notEqual(reading.kind, "trusted");
    }),
  );
});

Deno.test("readArgument() classifies selectors, credentials, text that runs, content and options", () => {
  const tool: ToolDefinition = {
    name: "t",
    parameters: {
      recipient: "string",
      file_id: "string",
      amount: "number",
      api_key: "string",
      command: "string",
      body: "string",
      due_date: "string",
      mode: "string",
      force: "boolean",
      retries: "integer",
      replicas: "integer",
      postal_code: "string",
      shell_command: "string",
    },
    schemas: {
      mode: { type: "string", enum: ["fast", "safe"] },
      retries: { type: "integer", minimum: 0, maximum: 3 },
    },
  };
  const kinds = Object.fromEntries(Object.keys(tool.parameters).map((name) => [name, readArgument(tool, name)]));
  assert.deepEqual(Object.fromEntries(Object.entries(kinds).map(([name, reading]) => [name, reading.kind])), {
    recipient: "selector",
    file_id: "selector",
    amount: "selector",
    api_key: "credential",
    command: "selector",
    body: "content",
    due_date: "content",
    mode: "option",
    force: "option",
    retries: "option",
    replicas: "selector",
    postal_code: "content",
    shell_command: "selector",
  });
  assert.equal(kinds.mode.rule, '{ allow: ["fast", "safe"] }');
  assert.equal(kinds.retries.rule, '{ allow: ["0", "1", "2", "3"] }');
  assert.match(kinds.due_date.why, /a date or time says when/);
});

Deno.test("readToolDefinitions() fills MCP's defaults for hints a server leaves out, and the draft says so", () => {
  const { tools } = readToolDefinitions({
    tools: [
      { name: "get_logs", inputSchema: {}, annotations: { readOnlyHint: true } },
      { name: "restart", inputSchema: { properties: { service: { type: "string" } } } },
    ],
  }, "x.json");
  assert.deepEqual(tools.map((tool) => [tool.openWorld, tool.destructive, tool.assumed]), [
    [true, undefined, ["openWorld"]],
    [true, true, ["openWorld", "destructive"]],
  ]);
  const yaml = draftPolicy(tools, "x.json");
  assert.match(yaml, /get_logs:\n {4}output: untrusted # openWorldHint \(MCP's default: the server does not say\)/);
  assert.match(yaml, /restart:\n.*\n {4}on_tainted: named # destructiveHint \(MCP's default/);
});

const argumentName = fc.constantFrom(
  "to",
  "body",
  "amount",
  "id",
  "note",
  "flag",
  "level",
  "count",
  "password",
  "url",
  "start_time",
  "command",
  "name",
  "x",
);
const argumentType = fc.constantFrom("string", "number", "integer", "boolean", "array", "object", "unknown");
const toolDefinition = fc.record({
  name: fc.stringMatching(/^[a-z]{1,6}_[a-z]{1,6}$/),
  parameters: fc.dictionary(argumentName, argumentType, { maxKeys: 6 }),
  readOnly: fc.option(fc.boolean(), { nil: undefined }),
  openWorld: fc.option(fc.boolean(), { nil: undefined }),
  destructive: fc.option(fc.boolean(), { nil: undefined }),
  description: fc.option(fc.constantFrom("Send a message", "Get the balance", "Read the files", ""), {
    nil: undefined,
  }),
}).map((tool) =>
  Object.fromEntries(Object.entries(tool).filter(([, value]) => value !== undefined)) as unknown as ToolDefinition
);

Deno.test("pab generate's draft lints and covers every argument of every tool that changes state (property)", () => {
  fc.assert(
    fc.property(fc.uniqueArray(toolDefinition, { selector: (tool) => tool.name, maxLength: 5 }), (tools) => {
      const yaml = draftPolicy(tools, "random.json");
      assert.deepEqual(lintPolicyText(yaml, { source: "random.yaml", format: "yaml" }).issues, []);
      const policy = parsePolicy(yaml);
      assert.deepEqual(argumentCoverage(policy, tools).filter((row) => row.covered === "none"), []);
      for (const tool of tools) {
        const spec = policy.tools[tool.name];
        if (tool.openWorld === true) {
          assert.equal(spec.output.kind === "label" && spec.output.label.trust, "suspicious");
        }
        if (tool.readOnly === false) assert.notEqual(spec.onTainted, "allow");
        if (tool.readOnly === false && tool.destructive === true) assert.equal(spec.onTainted, "named");
      }
    }),
    { numRuns: 150 },
  );
});
