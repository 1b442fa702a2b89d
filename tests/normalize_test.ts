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

Deno.test("tokenize() makes each typed value one canonical token and splits the rest into words and punctuation", () => {
  assert.deepEqual(tokenize("Mail Eve@Attacker.example now"), ["mail", "email:eve@attacker.example", "now"]);
  assert.deepEqual(tokenize("External_https://www.true-informations.com"), [
    "external",
    "_",
    "url:https://www.true-informations.com/",
  ]);
  assert.deepEqual(tokenize("IBAN: DE89 3704 0044 0532 0130 00"), ["iban", ":", "iban:de89370400440532013000"]);
  assert.deepEqual(tokenize("Zoë Müller, ref INV-2024-0042"), [
    "zoë",
    "müller",
    ",",
    "ref",
    "inv",
    "-",
    "2024",
    "-",
    "0042",
  ]);
});

Deno.test("tokenize() ignores how much whitespace separates tokens", () => {
  const expected = ["send", "it", "to", "email:eve@attacker.example"];
  assert.deepEqual(tokenize("send it to eve@attacker.example"), expected);
  assert.deepEqual(tokenize("\tsend\n it\r\nto\u00A0 eve@attacker.example  "), expected);
  assert.deepEqual(tokenize("send\u3000it to eve@attacker.example"), expected);
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

Deno.test("tokenize() reads numbers by value, and leaves versions, addresses and references alone", () => {
  assert.deepEqual(tokenize("98.70 10.00 2.50%"), ["num:98.7", "num:10", "num:2.5", "%"]);
  assert.deepEqual(tokenize("1,000 1000 1.000,00 1'000"), ["num:1000", "num:1000", "num:1000", "num:1000"]);
  assert.deepEqual(tokenize("1.05 -5 \u22125 +5"), ["num:1.05", "num:-5", "num:-5", "num:5"]);
  assert.deepEqual(tokenize("v1.10.0"), ["v1", ".", "10", ".", "0"]);
  assert.deepEqual(tokenize("10.0.0.1"), ["10", ".", "0", ".", "0", ".", "1"]);
  assert.deepEqual(tokenize("pg6.00"), ["pg6", ".", "00"]);
  assert.deepEqual(tokenize("120, 500 and 80"), ["num:120", ",", "num:500", "and", "num:80"]);
  assert.deepEqual(tokenize("$1,000.00, USD 1000 and 1000 EUR"), [
    "cur:usd",
    "num:1000",
    ",",
    "cur:usd",
    "num:1000",
    "and",
    "cur:eur",
    "num:1000",
  ]);
});

Deno.test("tokenize() drops spaces around @, so an address written to dodge harvesters is still one address", () => {
  assert.deepEqual(tokenize("write to bob @ corp.example"), ["write", "to", "email:bob@corp.example"]);
  assert.deepEqual(tokenize("bob\t@\u00A0corp.example"), ["email:bob@corp.example"]);
  assert.deepEqual(tokenize("meet\n@ noon"), ["meet", "@", "noon"], "a line break is not joined");
  assert.deepEqual(tokenize(`x${" ".repeat(50_000)}@ @ @`), ["x", "@", "@", "@"]);
});
