import assert from "node:assert/strict";
import { isWeakValue, leafValues, normalizeText, tokenize } from "../harvest/mod.ts";

Deno.test("normalizeText() drops invisible characters, folds NFKC and lower-cases", () => {
  assert.equal(normalizeText("ＥＶ\u200BＥ@Example"), "eve@example");
  assert.equal(normalizeText("e\u200Cv\u200De\uFEFF@ex\u00ADample"), "eve@example");
  assert.equal(normalizeText("ｅｖｅ＠ａｔｔａｃｋｅｒ．ｅｘａｍｐｌｅ"), "eve@attacker.example");
  assert.equal(normalizeText("ﬁle №5"), "file no5");
});

Deno.test("normalizeText() drops invisible characters before NFKC, so they cannot block composition", () => {
  // "e", zero-width space, combining acute: must fold to the same "é" the user typed.
  assert.equal(normalizeText("Jos\u00E9"), "jos\u00E9");
  assert.equal(normalizeText("Jose\u200B\u0301"), "jos\u00E9");
  assert.deepEqual(tokenize("Jose\u00AD\u0301@corp.example"), tokenize("jos\u00E9@corp.example"));
});

Deno.test("tokenize() splits into letter/digit runs and single punctuation marks", () => {
  assert.deepEqual(tokenize("Eve@Attacker.example  now"), ["eve", "@", "attacker", ".", "example", "now"]);
  assert.deepEqual(tokenize("External_https://www.true-informations.com"), [
    "external",
    "_",
    "https",
    ":",
    "/",
    "/",
    "www",
    ".",
    "true",
    "-",
    "informations",
    ".",
    "com",
  ]);
  assert.deepEqual(tokenize("IBAN: DE89 3704 0044"), ["iban", ":", "de89", "3704", "0044"]);
  assert.deepEqual(tokenize("Zoë Müller"), ["zoë", "müller"]);
});

Deno.test("tokenize() ignores how much whitespace separates tokens", () => {
  const expected = ["eve", "@", "attacker", ".", "example"];
  assert.deepEqual(tokenize("eve @ attacker . example"), expected);
  assert.deepEqual(tokenize("\teve\n@\r\nattacker .\u00A0example  "), expected);
  assert.deepEqual(tokenize("eve\u3000@attacker.example"), expected);
});

Deno.test("tokenize() keeps a word whole: invisible characters inside it do not split it", () => {
  assert.deepEqual(tokenize("st\u200Beve"), ["steve"]);
  assert.deepEqual(tokenize("ste\u00ADve"), ["steve"]);
  assert.deepEqual(tokenize("steve"), ["steve"]);
  assert.notDeepEqual(tokenize("steve"), tokenize("eve"));
});

Deno.test("tokenize() gives nothing for text with no tokens", () => {
  assert.deepEqual(tokenize(""), []);
  assert.deepEqual(tokenize(" \n\t"), []);
  assert.deepEqual(tokenize("\u200B\uFEFF\u00AD"), []);
});

Deno.test("isWeakValue() marks values of at most two characters and numbers below 1000", () => {
  for (const weak of ["1", "ab", "no", " a b ", "\u200Bok\u200B", "999", "-5", "12.50", "0"]) {
    assert.equal(isWeakValue(weak), true, `${JSON.stringify(weak)} should be weak`);
  }
  for (const strong of ["yes", "abc", "1000", "-1000", "12.5.1", "eve@x.example", "DE89370400440532013000"]) {
    assert.equal(isWeakValue(strong), false, `${JSON.stringify(strong)} should not be weak`);
  }
});

Deno.test("leafValues() lists every scalar leaf with its path", () => {
  assert.deepEqual(leafValues({ to: ["a@x.example", "b@x.example"], meta: { n: 3, ok: true, none: null } }), [
    { path: "to[0]", text: "a@x.example" },
    { path: "to[1]", text: "b@x.example" },
    { path: "meta.n", text: "3" },
    { path: "meta.ok", text: "true" },
  ]);
  assert.deepEqual(leafValues("alice@corp.example", "to"), [{ path: "to", text: "alice@corp.example" }]);
  assert.deepEqual(leafValues(undefined, "to"), []);
});

Deno.test("leafValues() refuses values nested more than 64 levels", () => {
  let deep: unknown = "x";
  for (let i = 0; i < 70; i++) deep = [deep];
  assert.throws(
    () => leafValues(deep, "to"),
    (error: unknown) =>
      error instanceof TypeError &&
      /^Cannot read value at to(\[0\]){65}: nested more than 64 levels$/.test(error.message),
  );
});

Deno.test("tokenize() drops trailing zeros of decimal numbers, and leaves versions, addresses and grouped numbers alone", () => {
  assert.deepEqual(tokenize("98.70 10.00 2.50%"), ["98", ".", "7", "10", "2", ".", "5", "%"]);
  assert.deepEqual(tokenize("98 .70"), tokenize("98.70"));
  assert.deepEqual(tokenize("1.05"), ["1", ".", "05"]);
  assert.deepEqual(tokenize("v1.10.0"), ["v1", ".", "10", ".", "0"]);
  assert.deepEqual(tokenize("10.0.0.1"), ["10", ".", "0", ".", "0", ".", "1"]);
  assert.deepEqual(tokenize("1.500,00"), ["1", ".", "500", ",", "00"]);
  assert.deepEqual(tokenize("pg6.00"), ["pg6", ".", "00"]);
});
