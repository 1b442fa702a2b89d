/**
 * The scanner with every fast path on, reading plain tokens where they stand (as the evidence index does), gives
 * exactly what the full grammar gives with every fast path off and every token cut out as a string: the same tokens,
 * the same entity texts, and an index that answers every question the same way. Random texts are built from the
 * pieces the fast paths must tell apart: links, addresses, hosts, IDNs, numbers, phone numbers, IBANs, cards,
 * compound words, punctuation, markup, character references, confusables and other scripts.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { scanText } from "../harvest/scan_text.ts";
import { isCloser } from "../harvest/scan_links.ts";
import { joinSpacedAt } from "../harvest/fold_text.ts";
import { FNV_OFFSET, FNV_PRIME } from "../harvest/word_window.ts";
import { scanSwitches } from "../harvest/_scan_switches.ts";
import { EvidenceIndex, extractEntities, tokenize } from "../harvest/mod.ts";
import { TokenTable } from "../harvest/token_table.ts";

const PIECES = [
  "https://docs.corp.example/r/5/3",
  "HTTPS://Docs.Corp.Example:443/A?b=1#c",
  "http://x.com/a(b)",
  "http://x.com/a(b))",
  "(http://x.com/a)",
  "http://[::1]:8080/p",
  "http://user:pw@evil.com/x",
  "https://evil.com@good.example/",
  "http://x.com/?u=https://evil.com",
  "ftp://files.example.org:21/pub",
  "a://b",
  "ab12://x.example",
  "git+ssh://host.example/r",
  "mailto:eve%40evil.com",
  "http://",
  "https://例え.テスト/パス",
  "http://xn--bcher-kva.de/",
  "http://evil%2Ecom/",
  "www.example.com/path?q=1",
  "www.x.com.They",
  "a.uk.Com",
  "report.pdf",
  "error.message",
  "carol5.3@corp.example",
  "bob @ corp.example",
  "Eve@Attacker.example",
  "x@acme.co.uk",
  "ｅｖｅ@ｅｘａｍｐｌｅ.com",
  "bücher.de",
  "+1 555 0103;",
  "+41 44 668 18 00",
  "(555) 123-4567",
  "555-123-4567",
  "+1 (555) 123-4567",
  "DE89 3704 0044 0532 0130 00",
  "GB82WEST12345698765432",
  "4111 1111 1111 1111",
  "4111-1111-1111-1111",
  "USD 1,000",
  "$1,000.00",
  "1.500",
  "50%",
  "−5",
  "3:",
  "5-3,",
  "#50003.",
  "INV-2024-0042",
  "snake_case",
  "a1_B2-c3",
  "3rd",
  "12_34",
  "x1",
  "0103",
  "9999999",
  "Line",
  "ÀÉÎ",
  "Straße",
  "naïve",
  "МОЯ",
  "раураl.com",
  "会議のメモ",
  "😀",
  "&#46;",
  "evil&period;com",
  "&amp;",
  '<a href="https://x.example/">',
  "</p>",
  '{"k": "v"}',
  "|",
  "\u200b",
  "\u00a0",
  "...",
  "?!",
  ")",
  "’",
];

const GLUE = [" ", " ", " ", "", "\n", "\t", ". ", ", ", "; ", ":", "/", "(", ")"];

const textArb = fc.array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(...GLUE)), { maxLength: 10 })
  .map((parts) => parts.map(([piece, glue]) => piece + glue).join(""));
const charsArb = fc.array(fc.constantFrom(..."aZh t p s:/.@-_#+()0159,;!?’)<>&\u00e9\u00fc\u00df\u0430xX"), {
  maxLength: 40,
}).map((chars) => chars.join(""));

/** What a scan gives: each token with its entity text, plain tokens read where they stand (their hash checked). */
function scanned(text: string, inPlace: boolean): string[] {
  const out: string[] = [];
  const sink = (token: string, raw?: string) => out.push(raw === undefined ? token : `${token} <- ${raw}`);
  if (!inPlace) {
    scanText(text, sink);
    return out;
  }
  scanText(text, sink, (from, start, end, hash, head) => {
    if (head !== undefined) {
      // An entity written as its token reads, where it stands: as the full grammar gives it, token and text.
      const written = from.slice(start, end);
      return sink(head + written.replace(/\s+/g, ""), written.replace(/\s+/g, " "));
    }
    const token = from.slice(start, end).toLowerCase();
    let expected = 0x811c9dc5;
    for (let i = 0; i < token.length; i++) expected = Math.imul(expected ^ token.charCodeAt(i), 0x01000193);
    assert.equal(hash | 0, expected | 0, `the hash of ${token}`);
    out.push(token);
  });
  return out;
}

/** `read` with every fast path off. */
function fullGrammar<T>(read: () => T): T {
  scanSwitches.fastPaths = false;
  try {
    return read();
  } finally {
    scanSwitches.fastPaths = true;
  }
}

Deno.test("scanText() with its fast paths and plain tokens in place gives the full grammar's tokens and texts", () => {
  fc.assert(
    fc.property(fc.oneof(textArb, charsArb), (text) => {
      const fast = scanned(text, true);
      assert.deepEqual(fast, fullGrammar(() => scanned(text, false)), JSON.stringify(text));
      assert.deepEqual(extractEntities(text), fullGrammar(() => extractEntities(text)), JSON.stringify(text));
    }),
    { numRuns: 6000 },
  );
});

Deno.test("scanText() joins an international phone number in groups exactly as the full grammar does", () => {
  // Mostly groups the join takes (one to five digits, a `-` or `.` inside), with the near misses mixed in.
  const group = fc.oneof(
    { weight: 4, arbitrary: fc.stringMatching(/^\d{1,5}$/) },
    { weight: 3, arbitrary: fc.stringMatching(/^\d{1,2}$/) },
    { weight: 2, arbitrary: fc.stringMatching(/^\d{1,5}[-.]\d{1,5}$/) },
    {
      weight: 1,
      arbitrary: fc.stringMatching(/^(?:\d{6,7}|\d{1,3}\)(?:[-.]\d{1,2})?|\(\d{1,3}\)|\d-|[a-z]\d|\d[-.]{2}\d)$/),
    },
  );
  const glue = fc.constantFrom(" ", " ", " ", " ", "  ", "\t", "\n", "", ";", ". ", ", ", ")", ") ", "’ ");
  const lead = fc.constantFrom("+", "+", "+", "+", "+ ", "++", "(+", "+(", "+1-", "+4.");
  const phone = fc.tuple(lead, fc.array(fc.tuple(group, glue), { maxLength: 9 }))
    .map(([head, parts]) => head + parts.map(([part, mark]) => part + mark).join(""));
  // The edges: 6 and 7 groups, 6, 7, 15 and 16 digits.
  const edges = ["+1 2 3 4 5 6 7 8 9", "+1 555 010", "+1 555 01", "+12 345 678 901 234 5", "+12 345 678 901 234 56"];
  for (const text of edges) assert.deepEqual(scanned(text, true), fullGrammar(() => scanned(text, false)), text);
  fc.assert(
    fc.property(phone, fc.constantFrom("", " now", " USD", " 4111", "<b>"), (written, tail) => {
      const text = `call ${written}${tail}`;
      const full = fullGrammar(() => scanned(text, false));
      // Read where it stands (as the index reads it), and cut out as strings by the scanner itself.
      assert.deepEqual(scanned(text, true), full, JSON.stringify(text));
      assert.deepEqual(scanned(text, false), full, JSON.stringify(text));
    }),
    { numRuns: 6000 },
  );
});

Deno.test("scanText() reads a link written as its token exactly as the full grammar does, and declines the rest", () => {
  // Links near the fast path's edge: capitals in the scheme or host, userinfo, ports (default or not), escapes,
  // trailing dots, IDNs, hosts that are not canonical, no path or one that starts with `?`, `#` or `\\`.
  const scheme = fc.constantFrom("https", "http", "HTTPS", "Http", "ftp", "git+ssh", "ws", "wss", "a1");
  const user = fc.constantFrom("", "", "", "user@", "u:p@", "eve%40x@");
  const host = fc.constantFrom(
    "docs.corp.example",
    "x.com",
    "a-b.example",
    "Docs.Corp.Example",
    "x.com.",
    "evil%2ecom",
    "xn--bcher-kva.de",
    "bücher.de",
    "-x.com",
    "x-.com",
    "localhost",
    "127.0.0.1",
    "my_site.example",
    "a..b",
    "",
    "[::1]",
    "x.c0m",
    "a".repeat(64) + ".com",
    "a".repeat(63) + ".com",
    `${"a".repeat(63)}.`.repeat(3) + "b".repeat(61),
    `${"a".repeat(63)}.`.repeat(3) + "b".repeat(62),
    "x.-a.com",
    "1-2.c",
    "-",
    ".-",
    "a.-",
    "x.com..",
  );
  const port = fc.constantFrom("", "", "", ":80", ":443", ":21", ":8080", ":", ":x");
  const path = fc.constantFrom("", "/", "/r/5/3", "/A/B?q=1#F", "?q=1", "#f", "\\x", "/a(b)", "/a.", "/é", "/%41");
  const tail = fc.constantFrom("", "", " ", ".", "),", ")", "’ ok", "://x.example", "<b>");
  fc.assert(
    fc.property(scheme, user, host, port, path, tail, (scheme, ...parts) => {
      const text = `see ${scheme}://${parts.join("")} now`;
      assert.deepEqual(scanned(text, true), fullGrammar(() => scanned(text, false)), JSON.stringify(text));
    }),
    { numRuns: 4000 },
  );
});

Deno.test("EvidenceIndex answers the same with the scanner's fast paths as with the full grammar", () => {
  fc.assert(
    fc.property(
      fc.array(textArb, { minLength: 1, maxLength: 4 }),
      fc.array(textArb, { maxLength: 6 }),
      (texts, asked) => {
        const fast = new EvidenceIndex();
        const full = new EvidenceIndex();
        texts.forEach((text, id) => fast.addText(id, text, id % 3));
        fullGrammar(() => texts.forEach((text, id) => full.addText(id, text, id % 3)));
        // Ask for every piece and word of the texts, and some values of their own.
        const values = [...texts.flatMap((text) => text.split(/\s+/)), ...PIECES, ...asked];
        for (const value of values) {
          assert.deepEqual(fast.find(value), full.find(value), value);
          assert.deepEqual(fast.vouch(value, () => true, 1), full.vouch(value, () => true, 1), value);
        }
        // Each text's own tokens, as a lookup reads them, are found in it.
        texts.forEach((text, id) => {
          if (tokenize(text).length) assert.ok(fast.find(text).some((match) => match.sourceId === id), text);
        });
      },
    ),
    { numRuns: 400 },
  );
});

Deno.test("isCloser() takes exactly the closing marks )'’”»›.,;:!?*", () => {
  for (let code = 0; code <= 0xffff; code++) {
    assert.equal(isCloser(code), ")'’”»›.,;:!?*".includes(String.fromCharCode(code)), `U+${code.toString(16)}`);
  }
});

/** The definition: each `@` takes the spaces and tabs on its line around it, back to the previous `@`'s end. */
function joinSpacedAtByHand(text: string): string {
  const inline = (code: number) =>
    /\s/.test(String.fromCharCode(code)) && !/[\n\r\v\f\u2028\u2029\ufeff]/.test(String.fromCharCode(code));
  let joined = "";
  let done = 0;
  for (let at = text.indexOf("@"); at >= 0; at = text.indexOf("@", at + 1)) {
    let start = at;
    while (start > done && inline(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < text.length && inline(text.charCodeAt(end))) end++;
    joined += `${text.slice(done, start)}@`;
    done = end;
    at = end - 1;
  }
  return joined + text.slice(done);
}

Deno.test("joinSpacedAt() drops the spaces and tabs on its line around each @, as the definition does", () => {
  const chars = [..."ab@ @\t\n\r\u00a0\u2003\u3000\u2028\u0085\ufeff\v.x"];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...chars), { maxLength: 16 }), (list) => {
      const text = list.join("");
      assert.equal(joinSpacedAt(text), joinSpacedAtByHand(text), JSON.stringify(text));
    }),
    { numRuns: 5000 },
  );
});

Deno.test("FNV_OFFSET is the FNV-1a offset basis as a signed 32-bit integer (the same bits)", () => {
  assert.equal(FNV_OFFSET >>> 0, 0x811c9dc5);
  assert.equal(FNV_OFFSET | 0, FNV_OFFSET);
  assert.equal(FNV_PRIME, 0x01000193);
});

Deno.test("TokenTable.get() finds exactly the tokens interned, whatever was looked up or interned before", () => {
  const char = fc.constantFrom(..."abz.:/-é", "日", "😀");
  const token = fc.array(char, { minLength: 1, maxLength: 12 }).map((chars) => chars.join(""));
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.boolean(), token), { maxLength: 200 }), (steps) => {
      const table = new TokenTable();
      const ids = new Map<string, number>();
      for (const [add, text] of steps) {
        if (add) {
          const id = table.intern(text, 1e9);
          assert.equal(id, ids.get(text) ?? ids.size, text);
          ids.set(text, id);
        } else assert.equal(table.get(text), ids.get(text), text);
        assert.equal(table.size, ids.size);
      }
      for (const [text, id] of ids) assert.equal(table.get(text), id);
    }),
    { numRuns: 500 },
  );
});
