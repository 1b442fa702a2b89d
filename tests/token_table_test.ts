import assert from "node:assert/strict";
import fc from "fast-check";
import { TokenTable } from "../harvest/token_table.ts";
import { WORD_LOWER } from "../harvest/word_window.ts";

Deno.test("TokenTable.internWritten() gives the id intern() gives to the head and the text without whitespace", () => {
  // Heads and texts with whitespace of every kind, letters of both cases, and characters past Latin-1 (widening).
  const head = fc.constantFrom("url:", "tel:", "num:", "", "é:", "日:");
  const char = fc.constantFrom(..."aZ09+-./: \t\n\u00a0\u3000\ufeffé", "ž", "日", "😀");
  const text = fc.array(char, { maxLength: 12 }).map((chars) => chars.join(""));
  fc.assert(
    fc.property(fc.array(fc.tuple(head, text, fc.boolean()), { maxLength: 100 }), (steps) => {
      const table = new TokenTable();
      const ids = new Map<string, number>();
      for (const [first, written, asString] of steps) {
        const token = first + written.replace(/\s/g, "");
        if (token === "") continue;
        const padded = `(${written})`;
        const id = asString ? table.intern(token, 1e9) : table.internWritten(first, padded, 1, padded.length - 1, 1e9);
        assert.equal(id, ids.get(token) ?? ids.size, JSON.stringify([first, written]));
        ids.set(token, id);
      }
      for (const [token, id] of ids) assert.equal(table.get(token), id, token);
      assert.equal(table.size, ids.size);
    }),
    { numRuns: 500 },
  );
  const table = new TokenTable();
  assert.equal(table.internWritten("tel:", "+1 555\t0100", 0, 11, 10), table.intern("tel:+15550100", 10));
  assert.equal(table.get("tel:+1 555\t0100"), undefined);
  assert.throws(() => table.internWritten("url:", "https://x.example/", 0, 18, 1), RangeError);
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

Deno.test("TokenTable.internPlainWord() finds words read in place as intern() does, across growth and widening", () => {
  // Few letters and short words, so that words recur in both cases, share lengths and hashes' low bits, and the
  // table grows (and sometimes widens) between a word's first reading and the next.
  const char = fc.constantFrom(..."aAbB0É", "é", "ÿ");
  const word = fc.array(char, { minLength: 1, maxLength: 5 }).map((chars) => chars.join(""));
  const step = fc.oneof(
    fc.tuple(fc.constant("plain"), word),
    fc.tuple(fc.constant("string"), fc.oneof(word, fc.constantFrom("日", "a b", "num:1"))),
    fc.tuple(fc.constant("get"), word),
  );
  fc.assert(
    fc.property(fc.array(step, { maxLength: 400 }), fc.integer({ min: 0, max: 600 }), (steps, filler) => {
      const table = new TokenTable();
      const ids = new Map<string, number>();
      const expect = (token: string) => ids.get(token) ?? ids.size;
      // Every plain word given the same hash: only the characters tell them apart.
      const colliding = new TokenTable();
      const collidingIds = new Map<string, number>();
      for (let i = 0; i < filler; i++) ids.set(`f${i}`, table.intern(`f${i}`, 1e9));
      for (const [kind, text] of steps) {
        const token = kind === "plain" ? text.toLowerCase() : text;
        if (kind === "get") {
          assert.equal(table.get(text), ids.get(text), text);
          continue;
        }
        const written = ` ${text}.`;
        let hash = 0x811c9dc5;
        for (const letter of token) hash = Math.imul(hash ^ letter.charCodeAt(0), 0x01000193);
        const id = kind === "plain"
          ? table.internPlainWord(written, 1, 1 + text.length, hash, 1e9)
          : table.intern(text, 1e9);
        assert.equal(id, expect(token), JSON.stringify([kind, text]));
        ids.set(token, id);
        if (kind !== "plain") continue;
        const same = colliding.internPlainWord(written, 1, 1 + text.length, 7, 1e9);
        assert.equal(same, collidingIds.get(token) ?? collidingIds.size, text);
        collidingIds.set(token, same);
      }
      for (const [token, id] of ids) assert.equal(table.get(token), id, token);
      assert.equal(table.size, ids.size);
    }),
    { numRuns: 300 },
  );
});

Deno.test("TokenTable tells tokens apart whichever bits of their hashes they share, across growth", () => {
  // internPlainWord() takes the hash it is given: hashes drawn from values that share their low bits (one slot) and
  // differ in their top bits, or are equal, so that only the table's full comparison of hash, length and characters
  // tells the words apart (a probe that skipped slots by some bits of the hash must still find every word). Fillers
  // past 4,096 tokens make the table remember recent tokens by their hashes' top bits, which these share too.
  const top = fc.constantFrom(0, 1, 2, 15, 16, 30, 31);
  const low = fc.constantFrom(0, 1, 0x7ffffff, 0x4000001);
  const hashOf = fc.func(fc.tuple(top, low).map(([high, rest]) => ((high << 27) | rest) | 0));
  const word = fc.array(fc.constantFrom(..."abc9"), { minLength: 1, maxLength: 4 }).map((chars) => chars.join(""));
  fc.assert(
    fc.property(
      hashOf,
      fc.array(word, { maxLength: 300 }),
      fc.integer({ min: 0, max: 6000 }),
      (hash, words, filler) => {
        const table = new TokenTable();
        const ids = new Map<string, number>();
        const plain = (text: string) => {
          const id = table.internPlainWord(` ${text} `, 1, 1 + text.length, hash(text), 1e9);
          assert.equal(id, ids.get(text) ?? ids.size, text);
          ids.set(text, id);
        };
        // Fillers between the words make the table grow (and move every slot) while the words recur.
        words.forEach((text, i) => {
          plain(text);
          if (i === words.length >> 1) {
            for (let k = 0; k < filler; k++) {
              ids.set(`f${k}`, table.intern(`f${k}`, 1e9));
            }
          }
        });
        for (const text of words) plain(text);
        for (let k = 0; k < filler; k++) assert.equal(table.get(`f${k}`), ids.get(`f${k}`));
        assert.equal(table.size, ids.size);
      },
    ),
    { numRuns: 300 },
  );
});
