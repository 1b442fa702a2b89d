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

/** The matcher as first written (regular expressions over the whole path): the definition the fast one keeps. */
function definedMatcher(patterns: readonly string[]): (path: string) => boolean {
  const compiled = patterns.map((pattern) => {
    const keys = pattern.replace(/\[(\d*|\*)\]/g, "").split(".");
    return keys.length === 1 && keys[0] !== "*" && keys[0] !== "**" ? ["**", keys[0]] : keys;
  });
  const prefixMatches = (pattern: string[], keys: string[]) => {
    let reachable = new Array<boolean>(keys.length + 1).fill(false);
    reachable[0] = true;
    for (const part of pattern) {
      const next = new Array<boolean>(keys.length + 1).fill(false);
      for (let j = 0; j <= keys.length; j++) {
        if (!reachable[j]) continue;
        if (part === "**") {
          for (let k = j; k <= keys.length; k++) next[k] = true;
          break;
        }
        if (j < keys.length && (part === "*" || part === keys[j])) next[j + 1] = true;
      }
      reachable = next;
    }
    return reachable.some(Boolean);
  };
  return (path) => {
    const flat = path.replace(/\[\d+\]/g, ".").replace(/^\.+|\.+$/g, "").replace(/\.{2,}/g, ".");
    const keys = flat === "" ? [] : flat.split(".");
    return compiled.some((pattern) => prefixMatches(pattern, keys));
  };
}

Deno.test("compileFieldPatterns() matches every path as the regular-expression definition does", () => {
  const key = fc.constantFrom("from", "to", "a", "fro", "from2", "x[y]", "*", "**");
  const pattern = fc.array(key, { minLength: 1, maxLength: 3 }).map((keys) => keys.join("."));
  const piece = fc.constantFrom(
    "from",
    "to",
    "a",
    "fro",
    "from2",
    "x[y]",
    ".",
    "[0]",
    "[12]",
    "[",
    "]",
    "[]",
    "[x]",
    "",
  );
  const path = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(""));
  fc.assert(
    fc.property(
      fc.array(pattern, { minLength: 1, maxLength: 3 }),
      fc.array(path, { maxLength: 20 }),
      (patterns, paths) => {
        const fast = compileFieldPatterns(patterns);
        const defined = definedMatcher(patterns);
        for (const leaf of paths) assert.equal(fast(leaf), defined(leaf), `${JSON.stringify(patterns)} ${leaf}`);
      },
    ),
    { numRuns: 500 },
  );
});
