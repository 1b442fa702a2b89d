/**
 * `pab generate` from a tool list that declares one name more than once: whatever order the declarations come in,
 * the draft never takes the laxer one. A name declared differently is left out (its calls follow the default); a
 * name declared the same way twice is drafted once.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { draftPolicy } from "../adapters/cli/draft/draft_policy.ts";
import type { ToolDefinition } from "../adapters/cli/draft/tool_definitions.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";

const definition: fc.Arbitrary<ToolDefinition> = fc.record({
  name: fc.constant("send_email"),
  description: fc.constantFrom("Send an e-mail.", "Read the inbox.", "Delete a file.", "Fetch a web page."),
  parameters: fc.dictionary(fc.constantFrom("to", "body", "url", "id", "amount"), fc.constantFrom("string", "number"), {
    maxKeys: 3,
  }),
  readOnly: fc.option(fc.boolean(), { nil: undefined }),
  openWorld: fc.option(fc.boolean(), { nil: undefined }),
  destructive: fc.option(fc.boolean(), { nil: undefined }),
});

function rules(tools: readonly ToolDefinition[]): unknown {
  return parsePolicy(draftPolicy(tools, "tools.json"), { source: "draft.yaml" }).tools.send_email;
}

Deno.test("draftPolicy() leaves out a tool declared twice as a closed-world read and as a sender", () => {
  const sender: ToolDefinition = { name: "send_email", parameters: { to: "string" }, openWorld: true };
  const decoy: ToolDefinition = { name: "send_email", parameters: {}, readOnly: true, openWorld: false };
  for (const tools of [[decoy, sender], [sender, decoy]]) {
    const yaml = draftPolicy(tools, "tools.json");
    assert.equal(rules(tools), undefined);
    assert.match(yaml, /# left out "send_email": declared 2 times, differently/);
  }
});

Deno.test("draftPolicy() drafts a name declared the same way twice once", () => {
  const sender: ToolDefinition = { name: "send_email", parameters: { to: "string" }, openWorld: true };
  assert.deepEqual(rules([sender, { ...sender }]), rules([sender]));
});

Deno.test("draftPolicy() drafts a twice-declared name only with rules both declarations draft alone (property)", () => {
  fc.assert(
    fc.property(definition, definition, (first, second) => {
      const drafted = rules([first, second]);
      assert.deepEqual(rules([second, first]), drafted);
      if (drafted !== undefined) {
        assert.deepEqual(drafted, rules([first]));
        assert.deepEqual(drafted, rules([second]));
      }
    }),
    { numRuns: 300 },
  );
});
