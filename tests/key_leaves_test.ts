import assert from "node:assert/strict";
import fc from "fast-check";
import { compilePolicy, type Decision, Guard } from "../mod.ts";
import { isDesignated, readLeaves } from "../guard/mod.ts";
import { EvidenceIndex } from "../harvest/mod.ts";

const policy = (fields: string[]) =>
  compilePolicy({
    version: 1,
    tools: {
      get_file_sharing: {
        output: "trusted",
        on_tainted: "allow",
        ...(fields.length ? { untrusted_fields: fields } : {}),
      },
      share_file: { output: "trusted", on_tainted: "allow", args: { to: { require: "trusted" } } },
      set_permissions: { output: "trusted", on_tainted: "allow", args: { permissions: { require: "trusted" } } },
    },
  });

function shareAfter(fields: string[], output: unknown, to: string): Decision {
  const guard = new Guard(policy(fields));
  guard.user("Share the budget with whoever already has the plan");
  guard.record("get_file_sharing", output);
  return guard.decide("share_file", { file: "budget", to });
}

Deno.test("Guard.record() vouches for the identities a trusted output holds as object keys", () => {
  const output = { file: "plan", shared_with: { "alice@corp.example": "read", "bob@corp.example": "write" } };
  assert.equal(shareAfter([], output, "alice@corp.example").outcome, "allow");
  assert.equal(shareAfter([], JSON.stringify(output), "bob@corp.example").outcome, "allow");
  assert.notEqual(shareAfter([], output, "eve@evil.example").outcome, "allow");
  // The field rules apply to a key as to the value under it.
  assert.notEqual(shareAfter(["shared_with"], output, "alice@corp.example").outcome, "allow");
});

Deno.test("readLeaves() reads a key that holds a typed value as a leaf, at its entry's path", () => {
  assert.deepEqual(readLeaves({ with: { "eve@evil.example": "write" } }, "permissions"), [
    { path: "permissions.with.eve@evil.example", text: "eve@evil.example", deep: false, key: true },
    { path: "permissions.with.eve@evil.example", text: "write", deep: false },
  ]);
  assert.deepEqual(readLeaves({ status: "open" }).map((leaf) => leaf.text), ["open"]);
  assert.deepEqual(readLeaves({ status: "open" }, "", 64, "all").map((leaf) => leaf.text), ["status", "open"]);
});

Deno.test("Guard.decide() checks a recipient hidden in an argument's object key", () => {
  const guard = new Guard(policy([]));
  guard.user("Give the team write access");
  guard.record("get_file_sharing", { shared_with: { "alice@corp.example": "read" } });
  const hidden = guard.decide("set_permissions", { file: "plan", permissions: { "eve@evil.example": "write" } });
  assert.ok(hidden.gaps.some((gap) => gap.value === "eve@evil.example"), JSON.stringify(hidden.gaps));
});

Deno.test("property: a key vouches exactly as the same value would as a leaf under the same field", () => {
  const address = fc.tuple(fc.stringMatching(/^[a-z]{1,6}$/), fc.constantFrom("corp.example", "x.example"))
    .map(([local, host]) => `${local}@${host}`);
  fc.assert(
    fc.property(
      fc.uniqueArray(address, { minLength: 1, maxLength: 4 }),
      fc.constantFrom<string[]>([], ["shared_with"], ["owner"]),
      fc.nat(),
      (people, fields, pick) => {
        const to = people[pick % people.length];
        const asKeys = { owner: "root", shared_with: Object.fromEntries(people.map((who) => [who, "read"])) };
        const asLeaves = { owner: "root", shared_with: people.map((who) => ({ who, role: "read" })) };
        assert.equal(
          shareAfter(fields, asKeys, to).outcome,
          shareAfter(fields, asLeaves, to).outcome,
          `${to} ${fields}`,
        );
      },
    ),
    { numRuns: 150 },
  );
});

Deno.test("property: Guard.record() designates a call exactly when the definition over every source says so", () => {
  const words = fc.constantFrom(
    "report",
    "news-42",
    "alice@corp.example",
    "q3-budget.xlsx",
    "7",
    "https://x.example/a",
  );
  const step = fc.record({
    kind: fc.constantFrom("user", "trusted", "untrusted"),
    text: fc.array(words, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(" ")),
    args: fc.dictionary(fc.constantFrom("page", "query", "file", "to"), words, { maxKeys: 2 }),
  });
  const session = compilePolicy({
    version: 1,
    tools: { read_trusted: { output: "trusted", on_tainted: "allow" }, read_untrusted: { output: "untrusted" } },
  });
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
      const guard = new Guard(session);
      // Every source's text in a plain index of its own: the definition asks of every source that holds a value.
      const index = new EvidenceIndex();
      for (const { kind, text, args } of steps) {
        if (kind === "user") guard.user(text);
        else {
          const expected = isDesignated(
            (value) => index.find(value).map((match) => guard.sources[match.sourceId]),
            args,
          );
          guard.record(kind === "trusted" ? "read_trusted" : "read_untrusted", text, { args });
          assert.equal(guard.sources[guard.sources.length - 1].designated === true, expected, JSON.stringify(steps));
        }
        index.addText(guard.sources.length - 1, text);
      }
    }),
    { numRuns: 200 },
  );
});
