/**
 * `pab lint` names the line of every issue: the policy's dotted paths found
 * again in YAML (block and flow style, sequences) and JSONC text.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { lineOfPath } from "../adapters/cli/policy/policy_line.ts";
import { lintPolicyText } from "../adapters/cli/policy/lint_policy.ts";

Deno.test("lineOfPath() finds keys in block and flow YAML, sequence items, and comments do not count", () => {
  const yaml = [
    "# a comment with tools: inside",
    "version: 1",
    "readers:",
    "  groups: [a, b]",
    "tools:",
    "  # send_email: not this one",
    "  read_inbox: {output: untrusted}",
    "  send_email:",
    "    recipients:",
    "      - a",
    "      - {arg: to}",
    "    args:",
    "      to: { require: trusted }",
  ].join("\n");
  assert.equal(lineOfPath(yaml, "yaml", "tools.send_email"), 8);
  assert.equal(lineOfPath(yaml, "yaml", "tools.read_inbox.output"), 7);
  assert.equal(lineOfPath(yaml, "yaml", "tools.send_email.recipients.1"), 11);
  assert.equal(lineOfPath(yaml, "yaml", "tools.send_email.args.to.require"), 13);
  assert.equal(lineOfPath(yaml, "yaml", "readers.groups.1"), 4);
  // A key the text lacks: the deepest one it has.
  assert.equal(lineOfPath(yaml, "yaml", "tools.send_email.args.cc"), 12);
  assert.equal(lineOfPath(yaml, "yaml", "nothing.here"), undefined);
});

Deno.test("lintPolicyText() gives each schema and semantic issue its line, in YAML and JSONC", () => {
  const yaml = "version: 1\ntools:\n  a:\n    on_taint: confirm\n  b: {recipients: [nowhere]}\n";
  const issues = lintPolicyText(yaml, { source: "p.yaml", format: "yaml" }).issues;
  assert.deepEqual(issues.map((issue) => [issue.path, issue.line]), [
    ["tools.a.on_taint", 4],
    ["tools.b.recipients.0", 5],
  ]);
  const jsonc = '{\n  "version": 1,\n  // c\n  "tools": {\n    "a": {"on_taint": "confirm"},\n  },\n}\n';
  const json = lintPolicyText(jsonc, { source: "p.jsonc", format: "jsonc" }).issues;
  assert.deepEqual(json.map((issue) => [issue.path, issue.line]), [["tools.a.on_taint", 5]]);
});

Deno.test("lintPolicyText() puts an unknown key's issue on the line that holds it, wherever it is (property)", () => {
  const name = fc.stringMatching(/^[a-z][a-z_]{0,7}$/);
  fc.assert(
    fc.property(
      fc.uniqueArray(name, { minLength: 1, maxLength: 6 }),
      fc.nat(),
      fc.boolean(),
      (tools, pick, flow) => {
        const bad = tools[pick % tools.length];
        const lines = ["version: 1", "tools:"];
        let expected = 0;
        for (const tool of tools) {
          if (flow) {
            lines.push(`  ${tool}: {output: untrusted${tool === bad ? ", outptu: x" : ""}}`);
            if (tool === bad) expected = lines.length;
          } else {
            lines.push(`  ${tool}:`, "    output: untrusted");
            if (tool === bad) {
              lines.push("    outptu: x");
              expected = lines.length;
            }
          }
        }
        const issues = lintPolicyText(`${lines.join("\n")}\n`, { source: "p.yaml", format: "yaml" }).issues;
        assert.deepEqual(issues.map((issue) => [issue.path, issue.line]), [[`tools.${bad}.outptu`, expected]]);
      },
    ),
    { numRuns: 100 },
  );
});
