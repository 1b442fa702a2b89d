/**
 * A YAML policy's keys name tools, arguments and catalogue entries by the text written: a plain key YAML would
 * read as another text (`0x10` as "16", `~` as "null", `007` as "7") is refused with where and how to fix, never
 * read as a rule for a name the author did not write.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { PolicyError } from "../guard/mod.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";

const TRICKY = [
  "0x10",
  "~",
  "007",
  "1.0",
  "1e3",
  ".inf",
  ".NaN",
  "0o7",
  "+1",
  "-0",
  "True",
  "NULL",
  "0.10",
  "1",
  "true",
];

function argsPolicy(key: string): string {
  return `version: 1\ntools:\n  send_email:\n    args:\n      ${key}: {require: trusted}\n`;
}

Deno.test("parsePolicy() refuses a plain YAML key read as another text, naming where and how to quote it", () => {
  assert.throws(() => parsePolicy(argsPolicy("0x10"), { source: "p.yaml" }), (error: unknown) => {
    assert.ok(error instanceof PolicyError);
    assert.equal(error.code, "ERR_POLICY_INVALID");
    assert.deepEqual(error.issues.map((issue) => issue.path), ["tools.send_email.args.0x10"]);
    assert.match(error.issues[0].message, /the key "0x10" is read by YAML as number "16"/);
    assert.match(error.issues[0].hint ?? "", /quote it/);
    return true;
  });
});

Deno.test("parsePolicy() refuses a catalogue entry keyed by an id YAML reads as a number", () => {
  const text = `version: 1\ncatalogues:\n  accounts:\n    key: id\n    entries: {0012345678: trusted}\n`;
  assert.throws(() => parsePolicy(text, { source: "p.yaml" }), PolicyError);
  const quoted = parsePolicy(text.replace("0012345678", '"0012345678"'), { source: "p.yaml" });
  assert.ok(quoted.catalogues.accounts);
});

Deno.test("parsePolicy() keeps a quoted key and a key YAML reads as the same text", () => {
  const policy = parsePolicy(
    `version: 1\ntools:\n  send_email:\n    args:\n      "0x10": {require: trusted}\n      1: {require: trusted}\n      true: {require: trusted}\n`,
    { source: "p.yaml" },
  );
  assert.deepEqual(Object.keys(policy.tools.send_email.args).sort(), ["0x10", "1", "true"]);
});

Deno.test("parsePolicy() walks an aliased node once when it checks keys (no blow-up from a YAML bomb)", () => {
  const levels = ["a: &a [{k: x}, {k: x}, {k: x}, {k: x}, {k: x}, {k: x}, {k: x}, {k: x}]"];
  for (let i = 1; i < 24; i++) {
    levels.push(`l${i}: &l${i} [${Array(8).fill(i === 1 ? "*a" : `*l${i - 1}`).join(", ")}]`);
  }
  assert.throws(() => parsePolicy(`version: 1\n${levels.join("\n")}\n`, { source: "p.yaml" }), PolicyError);
});

Deno.test("parsePolicy() reads every plain argument key as written, or refuses it", () => {
  const key = fc.oneof(fc.constantFrom(...TRICKY), fc.stringMatching(/^[0-9a-zA-Z._+~-]{1,8}$/));
  fc.assert(
    fc.property(key, (name) => {
      try {
        const policy = parsePolicy(argsPolicy(name), { source: "p.yaml" });
        assert.deepEqual(Object.keys(policy.tools.send_email.args), [name]);
      } catch (error) {
        if (!(error instanceof PolicyError)) throw error;
      }
    }),
    { numRuns: 300 },
  );
});
