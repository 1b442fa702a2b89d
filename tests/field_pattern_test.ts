import assert from "node:assert/strict";
import fc from "fast-check";
import { compileFieldPatterns, leafValues, matchesFieldPattern } from "../harvest/mod.ts";

Deno.test("matchesFieldPattern() with a bare key covers that key's whole subtree at any depth", () => {
  const output = { from: { address: "eve@attacker.example", name: "Eve" }, thread: [{ from: "x@y.example" }], id: 7 };
  const paths = leafValues(output).map((leaf) => leaf.path);
  assert.deepEqual(paths.filter((path) => matchesFieldPattern(path, "from")), [
    "from.address",
    "from.name",
    "thread[0].from",
  ]);
  assert.equal(matchesFieldPattern("fromage", "from"), false);
  assert.equal(matchesFieldPattern("sender.from_name", "from"), false);
});

Deno.test("matchesFieldPattern() anchors dotted patterns at the root, ignores array indices and reads * and **", () => {
  assert.equal(matchesFieldPattern("messages[2].from.address", "messages.from"), true);
  assert.equal(matchesFieldPattern("messages[2].from.address", "messages[].from"), true);
  assert.equal(matchesFieldPattern("from.address", "messages.from"), false);
  assert.equal(matchesFieldPattern("mail.headers.reply_to.value", "**.headers.*.value"), true);
  assert.equal(matchesFieldPattern("mail.headers.value", "**.headers.*.value"), false);
  assert.equal(matchesFieldPattern("a.b.c", "*"), true);
  assert.equal(matchesFieldPattern("a.b.c", "**"), true);
});

Deno.test("compileFieldPatterns() refuses empty patterns and empty keys", () => {
  for (const bad of ["", "a..b", ".a"]) {
    assert.throws(
      () => compileFieldPatterns([bad]),
      (error: unknown) =>
        error instanceof TypeError &&
        error.message === `Cannot read field pattern "${bad}": every key between dots must be non-empty`,
    );
  }
});

Deno.test("compileFieldPatterns() with a bare key matches every leaf under that key, however deep", () => {
  const key = fc.stringMatching(/^[a-z]{1,6}$/);
  fc.assert(
    fc.property(key, fc.array(key, { maxLength: 4 }), fc.array(key, { maxLength: 4 }), (name, above, below) => {
      let value: unknown = "leaf";
      for (const k of [...below].reverse()) value = { [k]: value };
      value = { [name]: [value] };
      for (const k of [...above].reverse()) value = { [k]: value };
      const stranger = compileFieldPatterns([name]);
      for (const leaf of leafValues(value)) assert.equal(stranger(leaf.path), true, leaf.path);
    }),
  );
});
