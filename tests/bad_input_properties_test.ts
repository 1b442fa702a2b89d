// Bad input always gets a clear error: whatever a policy or trace file holds, the loaders either
// succeed or throw their own error (with a code), never a TypeError or a crash from deep inside.
import assert from "node:assert/strict";
import fc from "fast-check";
import { compilePolicy, parsePolicy, PolicyError } from "../mod.ts";
import { TraceError } from "../adapters/trace/mod.ts";
import { readTrace } from "../adapters/trace/read_trace.ts";

const policyLike = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom("trusted", "untrusted", "attested", "all", "block", "confirm", "allow", "x", "", "{{to}}"),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(
      fc.constantFrom(
        "version",
        "tools",
        "args",
        "to",
        "require",
        "allow",
        "output",
        "readers",
        "groups",
        "labels",
        "trust",
        "recipients",
        "arg",
        "approvers",
        "mandate",
        "schemas",
        "fields",
        "merge",
        "casts",
        "cast",
        "ceiling",
        "catalogues",
        "key",
        "entries",
        "effects",
        "once",
        "requires_prior",
        "prerequisite",
        "on_tainted",
        "default",
      ),
      tie("value"),
      { maxKeys: 4 },
    ),
  ),
})).value;

Deno.test("compilePolicy() either compiles or throws PolicyError, for any policy-shaped value", () => {
  fc.assert(
    fc.property(policyLike, (raw) => {
      try {
        compilePolicy(raw, "fuzz.yaml");
      } catch (error) {
        assert.ok(error instanceof PolicyError, `unexpected ${String(error)}`);
        assert.equal(error.code, "ERR_POLICY_INVALID");
        assert.ok(error.issues.length > 0);
        for (const issue of error.issues) assert.ok(issue.message && issue.hint, JSON.stringify(issue));
      }
    }),
    { numRuns: 2000 },
  );
});

Deno.test("parsePolicy() either compiles or throws PolicyError, for any text", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 200 }), fc.constantFrom("p.yaml", "p.jsonc"), (text, source) => {
      try {
        parsePolicy(`version: 1\n${text}`, { source });
        parsePolicy(text, { source });
      } catch (error) {
        assert.ok(error instanceof PolicyError, `unexpected ${String(error)}`);
      }
    }),
    { numRuns: 1000 },
  );
});

Deno.test("readTrace() either reads or throws TraceError, for any text", () => {
  const header = '{"pab":"trace","schemaVersion":1,"id":"t"}\n';
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.json().map((json) => header + json)), (text) => {
      try {
        readTrace(text, { source: "fuzz.jsonl" });
      } catch (error) {
        assert.ok(error instanceof TraceError, `unexpected ${String(error)}`);
      }
    }),
    { numRuns: 1000 },
  );
});
