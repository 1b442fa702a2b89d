import assert from "node:assert/strict";
import fc from "fast-check";
import { TokenTable } from "../harvest/token_table.ts";
import { WORD_LOWER } from "../harvest/word_window.ts";

Deno.test("TokenTable.internInteger() gives the id intern() gives to num:N, in either order, for every whole number", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 200 }), (steps) => {
      const table = new TokenTable();
      const ids = new Map<number, number>();
      for (const [value, asText] of steps) {
        const id = asText ? table.intern(`num:${value}`, 1e9) : table.internInteger(value, 1e9);
        if (ids.has(value)) assert.equal(id, ids.get(value));
        ids.set(value, id);
        assert.equal(table.get(`num:${value}`), id);
      }
      assert.equal(table.size, ids.size);
    }),
    { numRuns: 300 },
  );
  const table = new TokenTable();
  assert.equal(table.internInteger(0, 10), table.intern("num:0", 10));
  assert.equal(table.internInteger(2 ** 31 - 1, 10), table.get("num:2147483647"));
  assert.equal(table.get("num:00"), undefined);
});

Deno.test("TokenTable keeps every token's characters apart across growth (many long and short tokens)", () => {
  const table = new TokenTable();
  const tokens = Array.from({ length: 20_000 }, (_, i) => i % 3 ? `tok${i}` : `${"x".repeat(i % 50)}é${i}`);
  const ids = tokens.map((token) => table.intern(token, 1e9));
  assert.deepEqual(ids, tokens.map((_, i) => i));
  tokens.forEach((token, i) => assert.equal(table.get(token), i));
  let hash = 0x811c9dc5;
  for (const char of "hello") hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  assert.equal(table.internPlainWord("Say HELLO", 4, 9, hash, 1e9), 20_000);
  assert.equal(table.get("hello"), 20_000);
  assert.equal(table.get("tok1x"), undefined);
});

Deno.test("TokenTable.internPlainWord() lowers ASCII and Latin-1 letters exactly as toLowerCase() does", () => {
  const letters = [..."aZqÀÉÎÏÕÖØÞßàéîïõöøþÿ"];
  for (let code = 0; code < 256; code++) {
    const char = String.fromCharCode(code);
    if (WORD_LOWER[code]) {
      assert.equal(String.fromCharCode(WORD_LOWER[code]), char.toLowerCase(), `U+${code.toString(16)}`);
    } else {assert.ok(
        !/[A-Za-z]/.test(char) && (code < 0xc0 || code === 0xd7 || code === 0xf7),
        `U+${code.toString(16)}`,
      );}
  }
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: 12 }), (chars) => {
      const word = chars.join("");
      const text = `(${word})`;
      let hash = 0x811c9dc5;
      for (let i = 1; i <= word.length; i++) hash = Math.imul(hash ^ WORD_LOWER[text.charCodeAt(i)], 0x01000193);
      const table = new TokenTable();
      const id = table.internPlainWord(text, 1, 1 + word.length, hash, 1e9);
      assert.equal(table.get(word.toLowerCase()), id);
      assert.equal(table.intern(word.toLowerCase(), 1e9), id);
    }),
    { numRuns: 1000 },
  );
});

Deno.test("TokenTable gives the same ids before and after it widens for a token that is not Latin-1", () => {
  const char = fc.constantFrom(..."abzéÿ.-:@", "ž", "日", "😀", "\u0100");
  const token = fc.array(char, { minLength: 1, maxLength: 8 }).map((chars) => chars.join(""));
  fc.assert(
    fc.property(fc.array(token, { maxLength: 300 }), (tokens) => {
      const table = new TokenTable();
      const ids = new Map<string, number>();
      for (const text of tokens) {
        const id = table.intern(text, 1e9);
        assert.equal(id, ids.get(text) ?? ids.size);
        ids.set(text, id);
      }
      for (const [text, id] of ids) assert.equal(table.get(text), id);
      // A plain word read in place finds the token interned as a string, whatever the width of the table.
      let hash = 0x811c9dc5;
      for (const letter of "zé") hash = Math.imul(hash ^ letter.charCodeAt(0), 0x01000193);
      assert.equal(table.internPlainWord("(ZÉ)", 1, 3, hash, 1e9), ids.get("zé") ?? ids.size);
      assert.equal(table.size, ids.size + (ids.has("zé") ? 0 : 1));
    }),
    { numRuns: 200 },
  );
});
