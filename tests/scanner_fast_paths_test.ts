/**
 * The scanner's hand-written fast paths give exactly what the grammar's regular expressions give: each is checked
 * here against the expression it stands in for, on random input over the characters that matter.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { amountTokens } from "../harvest/entity_grammar.ts";
import { plainTokens } from "../harvest/scan_links.ts";
import { scanSwitches } from "../harvest/_scan_switches.ts";
import { foldText } from "../harvest/fold_text.ts";
import { extractEntities, tokenize } from "../harvest/mod.ts";

const TOKEN = /[\p{L}\p{M}\p{N}]+|[^\s\p{L}\p{M}\p{N}]/gu;
const textOver = (chars: string, maxLength = 14) =>
  fc.array(fc.constantFrom(...chars), { maxLength }).map((list) => list.join(""));

Deno.test("plainTokens() cuts ASCII text as the token expression does", () => {
  const ascii = fc.array(fc.integer({ min: 0, max: 127 }), { maxLength: 20 }).map((codes) =>
    String.fromCharCode(...codes)
  );
  fc.assert(
    fc.property(fc.oneof(ascii, textOver("ab09-_.:/#@%+ \t\n\u00e9")), (text) => {
      const got: string[] = [];
      plainTokens(text, (token) => got.push(token));
      assert.deepEqual(got, text.match(TOKEN) ?? []);
    }),
    { numRuns: 3000 },
  );
});

/** The amount grammar as one expression (the spec the fast path must agree with), and how a match reads. */
const SYMBOLS: Readonly<Record<string, string>> = { "$": "usd", "€": "eur", "£": "gbp" };
const NUMBER_BODY = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:\.\d{3})+,\d+|\d{1,3}(?:\.\d{3}){2,}|` +
  String.raw`\d{1,3}(?:'\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?|[.,]\d+`;
const SIMPLE = new RegExp(`^(${NUMBER_BODY})$`, "u");

Deno.test("amountTokens() reads a bare number as the amount expression's body would", () => {
  fc.assert(
    fc.property(textOver("0123456789.,", 12), (core) => {
      const tokens = amountTokens(core);
      if (!SIMPLE.test(core)) return assert.equal(tokens, undefined, core);
      assert.equal(tokens?.length, 1, core);
      // Equal numbers read equal: the token is the number's value, written canonically.
      const value = Number(tokens![0].slice(4));
      assert.ok(Number.isFinite(value), `${core} gave ${tokens}`);
    }),
    { numRuns: 3000 },
  );
  assert.deepEqual(amountTokens("1234,50"), ["num:1234.5"]);
  assert.deepEqual(amountTokens("1,234.50"), ["num:1234.5"]);
  assert.deepEqual(amountTokens("1.500"), ["num:1.500"]);
  assert.deepEqual(amountTokens("007"), ["num:007"]);
  assert.deepEqual(amountTokens("1."), undefined);
  assert.deepEqual(amountTokens(".5"), ["num:0.5"]);
  assert.deepEqual(amountTokens("$5"), [`cur:${SYMBOLS.$}`, "num:5"]);
});

Deno.test("amountTokens() reads nothing from a core that does not start as a number (the scanner skips it)", () => {
  // The scanner asks the amount grammar about a word only when it starts as a number does: this expression.
  const numericStart = /^[-+\u2212(]?[\d$€£¥₹₩₽₺₪₫₴₦₱฿.,]/u;
  fc.assert(
    fc.property(textOver("ab09-+\u2212(.,$€'%:/ ", 10), (core) => {
      if (!numericStart.test(core)) assert.equal(amountTokens(core), undefined, core);
    }),
    { numRuns: 5000 },
  );
  assert.deepEqual(amountTokens("-$5"), ["cur:usd", "num:-5"]);
});

Deno.test("scanText() joins a phone number or card written in groups, its text the groups as written", () => {
  const group = fc.stringMatching(/^\d{1,4}$/);
  const marks = fc.constantFrom("", ".", ";", ",", ")");
  fc.assert(
    fc.property(
      fc.constantFrom("+", "(", ""),
      fc.array(group, { minLength: 1, maxLength: 8 }),
      marks,
      (lead, groups, mark) => {
        const written = `${lead}${groups.join(" ")}`;
        const entities = extractEntities(`call ${written}${mark} now`);
        const digits = groups.join("");
        const joined = entities.find((entity) => entity.text.includes(" "));
        // A join's text is the words it took, as written (single spaces): a run of the groups, never more.
        if (joined) assert.ok(written.includes(joined.text), `${written}: ${JSON.stringify(entities)}`);
        if (lead === "+" && digits.length >= 7 && digits.length <= 15 && groups.length <= 7) {
          assert.deepEqual(entities.map((entity) => entity.canonical), [`+${digits}`], written);
        }
      },
    ),
    { numRuns: 3000 },
  );
});

Deno.test("scanText() reads bare numbers and compound words on the fast paths exactly as the full grammar does", () => {
  const pieces = [
    "2024",
    "4111",
    "1234,56",
    "12.",
    "5)",
    "5).",
    "0,5",
    "1,5,",
    "1.2.3",
    "9999999",
    "10000000",
    "123456789012",
    "1234567890123",
    "4111 1111 1111 1111",
    "5 USD",
    "5 usd",
    "5 $",
    "5$",
    "5 €",
    "5 A",
    "12 34",
    "the",
    "a",
    "EUR",
    "1,000",
    "1.000",
    "$1,000.00",
    "50%",
    "-5",
    "+41 44 668 18 00",
    "555-123-4567",
    "(555) 123-4567",
    "<b>",
    "|",
    "1’",
    "9*",
    "42?",
    "10:",
    "x@y.example",
    "\u00a0",
    "\n",
    "Zürich",
    "ＡＢＣ",
    "INV-2024-33",
    "snake_case",
    "a-",
    "DE89-3704",
    "de89",
    "x1",
    "ab12",
    "USD-5",
    "usd_5",
    "INV-2024-33.",
    "A-1)",
    "b-2’",
    "AB12CD",
    "x-y.example",
    "co-op",
    "e-mail:",
    "IT60X0542811101000000123456",
    "Zürich",
    "MÜLLER.",
    "café,",
    "naïve",
    "ß",
    "ÀÉÎ",
    "STRASSE",
    "Straße",
    "DÉJÀ",
    "déjà-vu",
    "×",
    "÷",
    "ÿ",
    "Ÿ",
    "a×b",
    "ÉUR",
    "ÉÉ1",
    "it60-x054",
    "DE89 3704 0044 0532 0130 00",
    "GB82WEST12345698765432",
    "#1012.",
    "#tag",
    "#",
    "5-12,",
    "3rd",
    "2024-01-05",
    "555-123-4567",
    "4111-1111-1111-1111",
    "12_34",
    "1234",
    "USD",
  ];
  const textArb = fc.array(fc.tuple(fc.constantFrom(...pieces), fc.constantFrom(" ", " ", "", "\t")), {
    maxLength: 8,
  }).map((parts) => parts.map(([piece, glue]) => piece + glue).join(""));
  const charsArb = textOver("aAbBdDeEiItTuUsSxXzZ0123456789-_.,;:!?)(+#$€%'’*@/ \t\n<|éÉüÜßÿ×÷Àµ", 30);
  const read = (text: string) => ({ tokens: tokenize(text), entities: extractEntities(text) });
  fc.assert(
    fc.property(fc.oneof(textArb, charsArb), (text) => {
      const fast = read(text);
      scanSwitches.fastPaths = false;
      try {
        assert.deepEqual(fast, read(text), JSON.stringify(text));
      } finally {
        scanSwitches.fastPaths = true;
      }
    }),
    { numRuns: 8000 },
  );
});

Deno.test("foldText() folds exactly the words that have a character outside ASCII, Latin-1 letters skipped as their own fold", () => {
  const fold = (word: string) =>
    word.replace(/\p{Cf}/gu, "").normalize("NFKC").replace(/\p{Cf}/gu, "").replace(/[\u3002\uff61]/g, ".");
  // The definition: cut at whitespace (JavaScript's \s but U+FEFF), fold every word that has a character outside
  // ASCII, and the whitespace (U+00A0 folds to a space: still whitespace).
  const reference = (text: string) =>
    text.split(/([^\S\ufeff]+)/).map((part, i) => i % 2 || /[\u0080-\uffff]/.test(part) ? fold(part) : part).join("");
  const chars = [..."aeZ1 \n.@éüÇÿ×÷À\u0301\u0308\u00a0\u00adµ²ª¼ｅＡ\u200b\u3002ﬁßⅫ\ufeff\u2028х", "😀"];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...chars), { maxLength: 16 }), (list) => {
      const text = list.join("");
      assert.equal(foldText(text), reference(text), JSON.stringify(text));
    }),
    { numRuns: 5000 },
  );
  for (let code = 0xc0; code <= 0xff; code++) assert.equal(fold(String.fromCharCode(code)), String.fromCharCode(code));
});

/** The ISO 13616 remainder of an IBAN (independent of the scanner's own code). */
function ibanRemainder(compact: string): number {
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  const digits = [...rearranged.toUpperCase()].map((char) => (/\d/.test(char) ? char : String(char.charCodeAt(0) - 55)))
    .join("");
  return Number(BigInt(digits) % 97n);
}

Deno.test("scanText() joins the longest grouped IBAN that passes its check, the longest kinds included", () => {
  // Two prefixes that are both valid IBANs: the longer one wins, on the fast path as on the full grammar.
  const head = "GB";
  const first = "WEST12345698";
  const check = String(98 - ibanRemainder(`${head}00${first}`)).padStart(2, "0");
  const short = `${head}${check}${first}`;
  assert.equal(ibanRemainder(short), 1);
  let extra = "";
  for (let n = 0; n < 10_000 && !extra; n++) {
    const group = String(n).padStart(4, "0");
    if (ibanRemainder(short + group) === 1) extra = group;
  }
  assert.ok(extra, "some group extends the valid IBAN into a longer valid one");
  const texts = [
    `${short.slice(0, 4)} ${short.slice(4, 8)} ${short.slice(8, 12)} ${short.slice(12)} ${extra} and more`,
    "pay MT84 MALT 0110 0001 2345 MTLC AST0 01S today",
    "pay LC55 HEMM 0001 0001 0012 0012 0002 3015 today",
    "pay LC55 HEMM 0001 0001 0012 0012 0002 3016 today",
  ];
  const expected = [
    `iban:${(short + extra).toLowerCase()}`,
    "iban:mt84malt011000012345mtlcast001s",
    "iban:lc55hemm000100010012001200023015",
  ];
  texts.forEach((text, k) => {
    const tokens = tokenize(text);
    if (k < 3) assert.ok(tokens.includes(expected[k]), `${text}: ${tokens}`);
    else assert.ok(!tokens.some((token) => token.startsWith("iban:")), `${text}: ${tokens}`);
  });
});
