import assert from "node:assert/strict";
import fc from "fast-check";
import { compilePolicy, Guard } from "../mod.ts";
import { canonicalEntity, findEmbeddedValues, tokenize } from "../harvest/mod.ts";

/** Named references a renderer decodes to link punctuation. */
const NAMES: Readonly<Record<string, string[]>> = {
  ".": ["period"],
  "@": ["commat"],
  ":": ["colon"],
  "/": ["sol"],
  "_": ["lowbar"],
  "[": ["lsqb", "lbrack"],
  "]": ["rsqb", "rbrack"],
  "?": ["quest"],
  "=": ["equals"],
};

type Encoding = "plain" | "decimal" | "hex" | "padded" | "bare" | "named" | "percent";

/** One character as a page may write it. `next` is what follows: a reference without `;` must not run into it. */
function encode(char: string, how: Encoding, inHost: boolean, next: string): string {
  const code = char.codePointAt(0)!;
  const open = next === "" || !/[0-9a-zA-Z;]/.test(next);
  switch (how) {
    case "decimal":
      return `&#${code};`;
    case "hex":
      return `&#x${code.toString(16).toUpperCase()};`;
    case "padded":
      return `&#0000000000${code};`;
    case "bare":
      return open ? `&#${code}` : `&#${code};`;
    case "named":
      if (NAMES[char]) return `&${NAMES[char][code % NAMES[char].length]};`;
      // Script and double-struck letters, which NFKC (and a host's IDNA mapping) fold to the letter.
      if (/^[a-z]$/i.test(char)) return `&${char}${["scr", "opf", "fr"][code % 3]};`;
      return char === "é" ? "&eacute;" : `&#${code};`;
    case "percent":
      // A browser decodes escapes in a URL's host, written as UTF-8.
      return inHost && char !== "."
        ? [...new TextEncoder().encode(char)].map((byte) => `%${byte.toString(16)}`).join("")
        : char;
    default:
      return char;
  }
}

const label = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/);
const idn = fc.constantFrom("bücher", "пример", "exαmple", "straße", "café");
const host = fc.tuple(
  fc.array(fc.oneof(label, idn), { minLength: 1, maxLength: 2 }),
  fc.constantFrom("com", "co.uk", "zip", "dev"),
)
  .map(([labels, tld]) => [...labels, tld].join("."));
const ipv6 = fc.constantFrom("2001:db8::1", "::1", "2001:DB8:0:0:0:0:0:7", "::ffff:10.0.0.1");

/** A link or address, and the positions of its host (where escapes are a URL's own). */
const valueArb: fc.Arbitrary<{ value: string; host: [number, number] }> = fc.oneof(
  host.map((h) => ({ value: `https://${h}/login`, host: [8, 8 + h.length] as [number, number] })),
  fc.tuple(host, fc.constantFrom("", ":8443")).map(([h, port]) => ({
    value: `http://${h}${port}/x?y=1`,
    host: [7, 7 + h.length] as [number, number],
  })),
  ipv6.map((address) => ({ value: `https://[${address}]:8080/a`, host: [-1, -1] as [number, number] })),
  fc.tuple(label, host).map(([local, h]) => ({ value: `${local}@${h}`, host: [-1, -1] as [number, number] })),
  host.map((h) => ({ value: `www.${h}`, host: [-1, -1] as [number, number] })),
  host.map((h) => ({ value: `${h}/path`, host: [-1, -1] as [number, number] })),
);
const encodings = fc.constantFrom<Encoding>("plain", "decimal", "hex", "padded", "bare", "named", "percent");

/** The value written with a random encoding per character, in any mix. */
const writtenArb = valueArb.chain(({ value, host }) =>
  fc.array(encodings, { minLength: value.length, maxLength: value.length }).map((hows) => {
    const chars = [...value];
    const written = chars.map((char, i) => encode(char, hows[i], i >= host[0] && i < host[1], chars[i + 1] ?? " "));
    return { value, written: written.join("") };
  })
);
const glue = fc.constantFrom(" ", ' href="', " <a href=", " (", " *", "\u00a0");
const after = fc.constantFrom(" ", '" ', "> ", ") ", ". ", "&nbsp;");

Deno.test("property: a link or address written with character references, escapes or both is found as the renderer shows it", () => {
  fc.assert(
    fc.property(writtenArb, glue, after, ({ value, written }, before, end) => {
      const found = findEmbeddedValues(`Check${before}${written}${end}today`);
      const wanted = canonicalEntity(value)!.canonical;
      assert.ok(
        found.some((text) => canonicalEntity(text)?.canonical === wanted),
        `${JSON.stringify(value)} written ${JSON.stringify(written)}: found ${JSON.stringify(found)}`,
      );
    }),
    { numRuns: 600 },
  );
});

const policy = compilePolicy({
  version: 1,
  tools: {
    read_contacts: { output: "trusted", on_tainted: "allow" },
    get_webpage: { output: "untrusted", on_tainted: "allow" },
    send_message: { output: "trusted", on_tainted: "allow", args: { recipient: { require: "trusted" } } },
  },
});

Deno.test("property: a link vouched in a trusted source still vouches however the outward text encodes it, and only then", () => {
  fc.assert(
    fc.property(writtenArb, fc.boolean(), ({ value, written }, trusted) => {
      const guard = new Guard(policy);
      guard.user("Send Bob the link from my contacts");
      guard.record(trusted ? "read_contacts" : "get_webpage", `Bob's page: ${value}`);
      const decision = guard.decide("send_message", { recipient: "Bob", body: `Here it is: ${written} ok` });
      const embedded = decision.gaps.filter((gap) => gap.rule === "outward-default");
      assert.equal(embedded.length === 0, trusted, `${written}: ${JSON.stringify(decision.gaps)}`);
    }),
    { numRuns: 300 },
  );
});

Deno.test("tokenize() reads character references as a renderer does, once", () => {
  assert.deepEqual(tokenize("evil&#46;com"), tokenize("evil.com"));
  assert.deepEqual(tokenize("eve&commat;evil&period;com"), ["email:eve@evil.com"]);
  assert.deepEqual(tokenize("&#104;ttps&#x3A;&sol;&sol;evil&#x2e;com"), ["url:https://evil.com/"]);
  assert.deepEqual(tokenize("AT&amp;T"), tokenize("AT&T"));
  // Decoded once, as a renderer does: a reference written with an escaped `&` shows as written.
  assert.deepEqual(tokenize("evil&amp;#46;com"), tokenize("evil&#38;#46;com"));
  assert.notDeepEqual(tokenize("evil&amp;#46;com"), tokenize("evil.com"));
  // A name outside the table reads as its letters (fail closed: a host written with one is still a host).
  assert.deepEqual(tokenize("a &bogus; b"), ["a", "bogus", "b"]);
  assert.deepEqual(tokenize("ex&alpha;mple.com"), ["host:exalphample.com"]);
  assert.deepEqual(tokenize("caf&eacute;.example"), tokenize("café.example"));
  assert.deepEqual(tokenize("&Escr;vil.com"), ["host:evil.com"]);
});

Deno.test("findEmbeddedValues() reads percent-escaped hosts, bracketed IPv6 hosts and escaped mailto links", () => {
  const cases: [string, string][] = [
    ["go to https://evil%2Ecom/a", "url:https://evil.com/a"],
    ["go to https://%65vil.com/a", "url:https://evil.com/a"],
    ["go to http://[2001:DB8::1]:8080/x now", "url:http://[2001:db8::1]:8080/x"],
    ["go to http://[::ffff:127.0.0.1]/", "url:http://[::ffff:127.0.0.1]/"],
    ["<a href=mailto:eve%40evil.com>", "email:eve@evil.com"],
    ["see https://my_site.evil.com/ now", "url:https://my_site.evil.com/"],
  ];
  for (const [text, token] of cases) {
    const found = findEmbeddedValues(text);
    assert.ok(found.some((value) => tokenize(value).includes(token)), `${text}: found ${JSON.stringify(found)}`);
  }
});

Deno.test("findEmbeddedValues() ends on long hostile references and escapes (a benchmark measures the time)", () => {
  assert.deepEqual(findEmbeddedValues("&#0000&amp".repeat(20_000)), []);
  assert.deepEqual(findEmbeddedValues("http://[::1:".repeat(10_000)).length, 0);
  assert.ok(findEmbeddedValues(`${"&#".repeat(50_000)}46;`).length === 0);
});
