/**
 * Typed values for the whole type, not one example: every writing of a value
 * vouches every other writing (canonical equality both ways), and no strict
 * part of a value in a source is vouched by it.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { canonicalEntity, EvidenceIndex, extractEntities, tokenize } from "../harvest/mod.ts";

const INVISIBLES = ["\u200B", "\u200D", "\uFEFF", "\u00AD"];
const label = fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/);
const tld = fc.constantFrom("com", "org", "example", "dev", "io", "de", "ch", "museum", "zip", "app");
const domainArb = fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), tld).map(([labels, top]) =>
  [...labels, top].join(".")
);
const localArb = fc.tuple(label, fc.option(fc.tuple(fc.constantFrom(".", "+", "_", "-"), label), { nil: undefined }))
  .map(([first, rest]) => (rest ? first + rest[0] + rest[1] : first));
const emailArb = fc.tuple(localArb, domainArb).map(([local, domain]) => `${local}@${domain}`);

/** Upper-case some letters, widen some characters, slip in invisible characters. */
function disguise(text: string): fc.Arbitrary<string> {
  return fc.array(fc.tuple(fc.boolean(), fc.boolean(), fc.option(fc.constantFrom(...INVISIBLES), { nil: "" })), {
    minLength: text.length,
    maxLength: text.length,
  }).map((choices) =>
    [...text].map((char, i) => {
      const [upper, wide, invisible] = choices[i];
      const cased = upper ? char.toUpperCase() : char;
      const code = cased.charCodeAt(0);
      return invisible + (wide && code > 0x20 && code < 0x7f ? String.fromCharCode(code + 0xfee0) : cased);
    }).join("")
  );
}

/** Write `digits` in groups of `size` joined by `glue`. */
function grouped(digits: string, size: number, glue: string): string {
  return digits.match(new RegExp(`.{1,${size}}`, "g"))!.join(glue);
}

function withCheckDigits(country: string, bban: string): string {
  const rearranged = `${bban}${country}00`.toLowerCase();
  let remainder = 0;
  for (const char of rearranged) {
    const value = parseInt(char, 36);
    remainder = value > 9 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return `${country}${String(98 - remainder).padStart(2, "0")}${bban}`;
}

const ibanArb = fc.tuple(fc.constantFrom("DE", "GB", "FR", "CH", "NL"), fc.stringMatching(/^[0-9]{14,22}$/)).map((
  [country, bban],
) => withCheckDigits(country, bban));

const cardArb = fc.stringMatching(/^[1-9][0-9]{14}$/).map((body) => {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let value = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) value = value * 2 > 9 ? value * 2 - 9 : value * 2;
    sum += value;
  }
  return body + String((10 - (sum % 10)) % 10);
});

/** Pairs of writings of one value of each type. */
const writingsArb: fc.Arbitrary<[string, string]> = fc.oneof(
  emailArb.chain((email) => fc.tuple(disguise(email), disguise(email))),
  fc.tuple(fc.integer({ min: 1000, max: 999_999_999 }), fc.integer({ min: 0, max: 99 })).map(([whole, cents]) => {
    const fraction = String(cents).padStart(2, "0");
    const us = whole.toLocaleString("en-US");
    return [`${us}.${fraction}`, `${whole}${cents ? `.${fraction.replace(/0$/, "")}` : ""}`] as [string, string];
  }),
  fc.integer({ min: 1000, max: 999_999_999 }).map((n) =>
    [`${n.toLocaleString("de-DE")},00`, `${n.toLocaleString("en-US")}.00`] as [string, string]
  ),
  ibanArb.map((iban) => [grouped(iban, 4, " "), iban.toLowerCase()] as [string, string]),
  cardArb.chain((card) =>
    fc.constantFrom<[string, string]>([grouped(card, 4, " "), card], [grouped(card, 4, "-"), grouped(card, 4, " ")])
  ),
  fc.tuple(fc.integer({ min: 1, max: 99 }), fc.stringMatching(/^[0-9]{8,10}$/)).chain(([country, number]) =>
    fc.constantFrom<[string, string]>(
      [`+${country} ${grouped(number, 3, " ")}`, `+${country}${number}`],
      [`+${country}-${grouped(number, 3, "-")}`, `+${country}.${grouped(number, 3, ".")}`],
    )
  ),
  fc.tuple(fc.stringMatching(/^[a-zäöü]{2,8}$/), domainArb, fc.array(label, { maxLength: 3 }), fc.boolean()).chain(
    ([name, domain, path, secure]) => {
      const host = `${name}.${domain}`;
      const scheme = secure ? "https" : "http";
      const tail = path.length ? `/${path.join("/")}` : "";
      const ascii = new URL(`${scheme}://${host}`).hostname;
      return fc.constantFrom<[string, string]>(
        [`${scheme.toUpperCase()}://${host.toUpperCase()}${tail}`, `${scheme}://${ascii}:${secure ? 443 : 80}${tail}`],
        [`${scheme}://${host}${tail || "/"}`, `${scheme}://${ascii}${tail}`],
      );
    },
  ),
  fc.tuple(fc.stringMatching(/^[2-9][0-9]{2}$/), fc.stringMatching(/^[0-9]{3}$/), fc.stringMatching(/^[0-9]{4}$/))
    .chain(
      ([area, exchange, line]) =>
        fc.constantFrom<[string, string]>(
          [`(${area}) ${exchange}-${line}`, `${area}-${exchange}-${line}`],
          [`${area}.${exchange}.${line}`, `(${area})${exchange}-${line}`],
        ),
    ),
  fc.tuple(fc.integer({ min: 1, max: 9_999_999 }), fc.constantFrom(["$", "USD"], ["€", "EUR"], ["£", "GBP"])).chain((
    [amount, [symbol, code]],
  ) =>
    fc.constantFrom<[string, string]>(
      [`${symbol}${amount.toLocaleString("en-US")}.00`, `${code} ${amount}`],
      [`${amount} ${code}`, `${symbol} ${amount.toLocaleString("en-US")}`],
    )
  ),
  fc.tuple(fc.stringMatching(/^[a-zäöüéß]{2,8}$/), domainArb).map(([name, domain]) => {
    const host = `${name}.${domain}`;
    return [host, new URL(`http://${host}`).hostname] as [string, string];
  }),
);

Deno.test("EvidenceIndex.find() finds every writing of a typed value from every other writing", () => {
  fc.assert(
    fc.property(writingsArb, fc.boolean(), ([a, b], swap) => {
      const [stored, asked] = swap ? [b, a] : [a, b];
      const index = new EvidenceIndex();
      index.addText(0, `Note: (${stored}), thanks.`);
      assert.deepEqual(index.find(asked).map((match) => match.sourceId), [0], `${asked} not found in ${stored}`);
      assert.ok(canonicalEntity(asked), `${asked} is not read as one typed value`);
      const inStored = extractEntities(stored);
      assert.equal(inStored.length, 1, `${stored} holds one typed value`);
      assert.equal(canonicalEntity(asked)?.canonical, inStored[0].canonical);
    }),
    { numRuns: 400 },
  );
});

Deno.test("EvidenceIndex.find() never vouches a strict part of a typed value by the value", () => {
  fc.assert(
    fc.property(writingsArb, ([writing]) => {
      // The value itself, without markup around it (`href=`).
      const written = extractEntities(writing)[0].text;
      const index = new EvidenceIndex();
      index.addText(0, `« ${written} »`);
      const whole = tokenize(written).join(" ");
      // The number of an amount is documented to pass on its own (`1000` from `$1,000`).
      const amountNumber = whole.startsWith("cur:") ? whole.split(" ")[1] : undefined;
      for (let start = 0; start < written.length; start++) {
        for (let end = start + 1; end <= written.length; end++) {
          const part = written.slice(start, end);
          const tokens = tokenize(part).join(" ");
          if (tokens === whole || tokens === amountNumber || !tokens) continue;
          assert.deepEqual(index.find(part), [], `the part ${JSON.stringify(part)} of ${JSON.stringify(written)}`);
        }
      }
    }),
    { numRuns: 150 },
  );
});

Deno.test("EvidenceIndex.find() never glues numbers across a list, nor reads a reference as a signed number", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 999 }),
      fc.integer({ min: 100, max: 999 }),
      fc.integer({ min: 1, max: 9999 }),
      fc.constantFrom(", ", " ,", " and ", "; ", " / "),
      (first, second, third, joint) => {
        const index = new EvidenceIndex();
        index.addText(
          0,
          `amounts ${first}${joint}${second} and ${third}; ref INV-${first}-${second}, id ${third}-${first}`,
        );
        // The product compares canonical numbers (`9,998` is 9998), so the model does too: a glued
        // writing that reads as the third number, or its negation, is that number and is found.
        const thirdWritings = [String(third), `-${third}`].map((text) => tokenize(text).join(" "));
        for (
          const glued of [`${first},${second}`, `${first}.${second}`, `-${second}`, `-${first}`, `${first}${second}`]
        ) {
          if (thirdWritings.includes(tokenize(glued).join(" "))) continue;
          assert.deepEqual(index.find(glued), [], glued);
        }
        assert.deepEqual(index.find(String(third)).map((match) => match.sourceId), [0]);
      },
    ),
    // The counterexample that once made this property flaky: `9,998` is the third number, 9998.
    { examples: [[9, 998, 9998, ", "], [1, 234, 1234, " ,"]] },
  );
});

Deno.test("extractEntities() reads an address in display-name and list forms and a link glued to markup", () => {
  const entities = extractEntities(
    'To: "Smith, Alice" <Alice@Corp.example>, bob@corp.example; <a href=https://evil.example/x>x</a> •https://b.example',
  );
  assert.deepEqual(entities.map((entity) => [entity.type, entity.canonical]), [
    ["email", "alice@corp.example"],
    ["email", "bob@corp.example"],
    ["url", "https://evil.example/x"],
    ["url", "https://b.example/"],
  ]);
});

Deno.test("canonicalEntity() reads a whole value as one typed value, or says it is free text", () => {
  assert.deepEqual(canonicalEntity("USD 1,000"), { type: "amount", canonical: "usd 1000", text: "USD 1,000" });
  assert.equal(canonicalEntity("+41 44 668 18 00")?.canonical, "+41446681800");
  assert.equal(canonicalEntity("4111-1111-1111-1111")?.type, "card");
  assert.equal(
    canonicalEntity("HTTPS://User@Example.COM:443/Path?Q=1")?.canonical,
    "https://User@example.com/Path?Q=1",
  );
  assert.equal(canonicalEntity("alice and bob"), undefined);
});

Deno.test("EvidenceIndex.find() holds to SECURITY.md's table of what matches what", () => {
  const same: [string, string][] = [
    ["Alice@Corp.example", "alice@corp.example"],
    ["ａｌｉｃｅ＠ｃｏｒｐ．ｅｘａｍｐｌｅ", "alice@corp.example"],
    ["HTTPS://Bücher.example:443", "https://xn--bcher-kva.example/"],
    ["bücher.example", "xn--bcher-kva.example"],
    ["evil。com", "evil.com"],
    ["evil.com", "evil&period;com"],
    ["https://xn--bcher-kva.example/", "https://b%C3%BCcher.example"],
    ["DE89 3704 0044 0532 0130 00", "de89370400440532013000"],
    ["4111 1111 1111 1111", "4111-1111-1111-1111"],
    ["4111-1111-1111-1111", "4111111111111111"],
    ["+41 44 668 18 00", "+41-44-668-18-00"],
    ["+41-44-668-18-00", "+41446681800"],
    ["1,000", "1000"],
    ["1.000,00", "1'000"],
    ["98.70", "98.7"],
    ["\u22125", "-5"],
    ["$1,000.00", "USD 1000"],
    ["USD 1000", "1000 USD"],
    ["$1,000", "1000"],
  ];
  for (const [source, argument] of same) {
    const index = new EvidenceIndex();
    index.addText(0, `see ${source} here`);
    assert.deepEqual(index.find(argument).map((match) => match.sourceId), [0], `${argument} from ${source}`);
  }
  const other: [string, string][] = [
    ["x@acme.co.uk", "x@acme.co"],
    ["steve@x.example", "eve@x.example"],
    ["a+tag@x.example", "tag@x.example"],
    ["x@acme.co.uk", "acme.co.uk"],
    ["https://x.example/a/b", "https://x.example/a"],
    ["https://x.example/", "x.example"],
    ["https://x.example/Path", "https://x.example/path"],
    ["acme.co.uk", "acme.co"],
    ["DE89 3704 0044 0532 0130 00", "3704 0044"],
    ["4111 1111 1111 1111", "1111"],
    ["+41 44 668 18 00", "44 668"],
    ["+41446681800", "0446681800"],
    ["120, 500 and 80", "120,500"],
    ["INV-2024-0042", "-2024"],
    ["INV-2024-0042", "2024"],
    ["2024-11-30", "2024"],
    ["1.500", "1500"],
    ["1.500", "1.5"],
    ["$1,000", "EUR 1000"],
    ["report to alice@corp.example", "report to alice"],
  ];
  for (const [source, argument] of other) {
    const index = new EvidenceIndex();
    index.addText(0, `see ${source} here`);
    assert.deepEqual(index.find(argument), [], `${argument} from ${source}`);
  }
});
