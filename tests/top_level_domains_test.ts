// A bare dotted name is a host only under a top-level domain: member accesses and names in code are not hosts, and
// every delegated top-level domain still makes one.
import assert from "node:assert/strict";
import fc from "fast-check";
import { compilePolicy, Guard } from "../mod.ts";
import { canonicalEntity, findEmbeddedValues, isTopLevelDomain } from "../harvest/mod.ts";
import { icannTopLevelDomains, tldFilterModule } from "../adapters/build/tld_filter.ts";

const FILE_EXTENSIONS = "md py sh rs pl pm ps so cc mk am in ac tf ml nu gd sc cr st".split(" ");
const PSL = "/usr/share/publicsuffix/public_suffix_list.dat";
const ROOT = new URL("../", import.meta.url);

async function installedList(): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(PSL);
  } catch {
    return undefined;
  }
}

Deno.test("the committed filter is what adapters/build/tld_filter.ts makes from the list it names", async () => {
  const list = await installedList();
  const committed = await Deno.readTextFile(new URL("harvest/_tld_filter.ts", ROOT));
  if (list === undefined) {
    console.warn(`skipped: ${PSL} is not installed`);
    return;
  }
  const made = await tldFilterModule(list, PSL);
  const sha = (text: string) => /sha256: ([0-9a-f]{64})/.exec(text)?.[1];
  if (sha(made) !== sha(committed)) {
    console.warn(`skipped: ${PSL} is another version of the list than the one the filter was made from`);
    return;
  }
  assert.equal(`${made.trimEnd()}\n`, committed);
});

Deno.test("property: every top-level domain of the list makes a bare name a host, however cased", async () => {
  const list = await installedList();
  const tlds = list ? icannTopLevelDomains(list) : ["com", "uk", "io", "xyz", "shop", "xn--p1ai", "museum", "zip"];
  assert.ok(tlds.every(isTopLevelDomain));
  const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/);
  fc.assert(
    fc.property(name, fc.constantFrom(...tlds), fc.boolean(), (label, tld, upper) => {
      // Two labels on a country code that is also a file extension read as a file name (`setup.py`, code_names.ts).
      const host = FILE_EXTENSIONS.includes(tld) ? `www.${label}.${tld}` : `${label}.${tld}`;
      const written = upper ? host.toUpperCase() : host;
      const found = findEmbeddedValues(`Please visit ${written} today.`);
      return found.some((value) => canonicalEntity(value)?.canonical === canonicalEntity(host)?.canonical);
    }),
    { numRuns: 500 },
  );
});

Deno.test("member accesses and names in code under no top-level domain are not hosts", () => {
  const text = "The crash comes from error.message being undefined: check err.stack, req.url, import.meta.url, " +
    "obj.field, this.props.title, fx.convert() and decision.outcome in the handler.";
  assert.deepEqual(findEmbeddedValues(text), []);
  for (const name of ["error.message", "call.tool", "result.stderr", "import.meta.url"]) {
    assert.notEqual(canonicalEntity(name)?.type, "host", name);
  }
});

Deno.test("real hosts stay hosts: common, country, new, internationalised, reserved, in a link or a sentence", () => {
  const cases: [string, string[]][] = [
    ["send it to evil.com and evil.co.uk", ["evil.com", "evil.co.uk"]],
    ["try evil.shop, evil.xyz or evil.top.", ["evil.shop", "evil.xyz", "evil.top"]],
    ["bücher.de and пример.рф and 例子.中国", ["bücher.de", "пример.рф", "例子.中国"]],
    ["corp.example and x.test", ["corp.example", "x.test"]],
    ["https://error.message/x and www.error.message and error.message/path", [
      "https://error.message/x",
      "www.error.message",
      "error.message/path",
    ]],
  ];
  for (const [text, expected] of cases) assert.deepEqual(findEmbeddedValues(text), expected, text);
});

Deno.test("Guard.decide() lets an outward comment that names error.message run, and still asks about evil.shop", () => {
  const policy = compilePolicy({
    version: 1,
    tools: {
      read_issue: { output: "untrusted", on_tainted: "allow" },
      post_comment: { output: "trusted", on_tainted: "allow", outward: true },
    },
  });
  const guard = new Guard(policy);
  guard.user("Reply to the bug report");
  guard.record("read_issue", "It crashes: error.message is undefined in import.meta.url handling. See evil.shop");
  const fine = guard.decide("post_comment", {
    body: "Fixed: error.message is now set before import.meta.url is read.",
  });
  assert.equal(fine.outcome, "allow", JSON.stringify(fine.gaps));
  const link = guard.decide("post_comment", { body: "Details at evil.shop" });
  assert.notEqual(link.outcome, "allow");
  assert.deepEqual(link.gaps.map((gap) => gap.rule), ["outward-default"]);
});

Deno.test("about one label in sixteen that is no top-level domain is read as one, and no fewer than one in twenty-five", async () => {
  const list = await installedList();
  const tlds = new Set(list ? icannTopLevelDomains(list) : []);
  let state = 12345;
  let labels = 0;
  let found = 0;
  while (labels < 50_000) {
    let label = "";
    for (let i = 0; i < 7; i++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      label += String.fromCharCode(97 + (state >>> 16) % 26);
    }
    if (tlds.has(label)) continue;
    labels++;
    if (isTopLevelDomain(label)) found++;
  }
  assert.ok(found / labels < 1 / 14, `${found} of ${labels}`);
  assert.ok(found / labels > 1 / 25, `${found} of ${labels}`);
});
