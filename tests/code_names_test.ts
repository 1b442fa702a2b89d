import assert from "node:assert/strict";
import fc from "fast-check";
import { compilePolicy, Guard } from "../mod.ts";
import { canonicalEntity, findEmbeddedValues } from "../harvest/mod.ts";

const identifier = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const mixedCase = (text: string, flips: boolean[]) =>
  [...text].map((char, i) => (flips[i % flips.length] ? char.toUpperCase() : char)).join("");

Deno.test("findEmbeddedValues() reads file names and names in code as code, not hosts", () => {
  const comment = "Updated README.md and csv_writer.py; fx.convert() now calls os.path.join(a, b) and main.rs, " +
    "see docs/CHANGELOG.md, run install.sh, utils.rb and Makefile.in";
  assert.deepEqual(findEmbeddedValues(comment), []);
});

Deno.test("findEmbeddedValues() still finds every real host near code", () => {
  const cases: [string, string[]][] = [
    ["EVIL.Com and evil.co.uk", ["EVIL.Com", "evil.co.uk"]],
    ["bücher.example and пример.рф", ["bücher.example", "пример.рф"]],
    ["call evil.com() or evil.co.uk(x)", ["evil.com", "evil.co.uk"]],
    ["see https://README.md and www.setup.py", ["https://README.md", "www.setup.py"]],
    ["evil.md/path and sh.rustup.rs", ["evil.md/path", "sh.rustup.rs"]],
    ["a_b.evil.com", ["b.evil.com"]],
  ];
  for (const [text, expected] of cases) assert.deepEqual(findEmbeddedValues(text), expected, text);
});

Deno.test("property: a code name is never a host, whatever its case", () => {
  const codeName = fc.oneof(
    // An underscore in one of the last two labels: no host name holds one.
    fc.tuple(identifier, identifier, fc.constantFrom("py", "md", "com", "io", "sh")).map(([a, b, ext]) =>
      `${a}_${b}.${ext}`
    ),
    // A call on anything but a common top-level domain.
    fc.tuple(identifier, fc.stringMatching(/^[a-z]{3,12}$/)).filter(([, method]) =>
      !["com", "org", "net", "edu", "gov", "info", "biz"].includes(method)
    ).map(([object, method]) => `${object}.${method}()`),
    // A file name with an extension that is also a country code.
    fc.tuple(identifier, fc.constantFrom("md", "py", "sh", "rs", "pl", "pm", "cc", "mk", "in")).map(([name, ext]) =>
      `${name}.${ext}`
    ),
    // A two-letter last label that is no country's.
    fc.tuple(identifier, fc.constantFrom("rb", "hs", "kt", "fs", "vb", "el", "ex", "jl")).map(([name, ext]) =>
      `${name}.${ext}`
    ),
  );
  fc.assert(
    fc.property(codeName, fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }), (name, flips) => {
      const written = mixedCase(name, flips);
      assert.deepEqual(findEmbeddedValues(`Please look at ${written} in the diff`), [], written);
    }),
    { numRuns: 400 },
  );
});

Deno.test("property: a real host is found bare, in a link, with a path, however cased", () => {
  const tld = fc.constantFrom("com", "net", "org", "co.uk", "com.au", "xyz", "zip", "dev", "io", "ru", "de", "museum");
  const label = fc.oneof(identifier, fc.constantFrom("bücher", "пример", "exαmple"));
  const hostArb = fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), tld).map(([labels, end]) =>
    [...labels, end].join(".")
  );
  const form = fc.constantFrom("bare", "path", "link", "www", "call");
  fc.assert(
    fc.property(hostArb, form, fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }), (host, how, flips) => {
      const cased = mixedCase(host, flips);
      const written = how === "path"
        ? `${cased}/login`
        : how === "link"
        ? `https://${cased}/`
        : how === "www"
        ? `www.${cased}`
        : how === "call" && /\.(com|net|org|uk|au|io|de)$/.test(host)
        ? `${cased}()`
        : cased;
      const found = findEmbeddedValues(`Please look at ${written} today`);
      const wanted = canonicalEntity(written.replace(/\(\)$/, ""))?.canonical;
      assert.ok(wanted !== undefined && found.some((value) => canonicalEntity(value)?.canonical === wanted), written);
    }),
    { numRuns: 400 },
  );
});

Deno.test("Guard.decide() lets a review comment that names files and functions run with no question", () => {
  const policy = compilePolicy({
    version: 1,
    tools: {
      read_pull_request: { output: "untrusted", on_tainted: "allow" },
      post_comment: { output: "trusted", on_tainted: "allow", outward: true },
    },
  });
  const guard = new Guard(policy);
  guard.user("Review pull request 12 and comment on it");
  guard.record("read_pull_request", "Changes README.md, csv_writer.py and fx.convert(); see evil.example/x");
  const fine = guard.decide("post_comment", {
    pr: 12,
    body: "README.md looks good; csv_writer.py should call fx.convert() once.",
  });
  assert.equal(fine.outcome, "allow", JSON.stringify(fine.gaps));
  const link = guard.decide("post_comment", { pr: 12, body: "Please also read evil.example/x" });
  assert.deepEqual(link.gaps.map((gap) => gap.rule), ["outward-default"]);
});
