// The unseen-domain check set (traces/examples/unseen/): policies drafted by pab generate, unedited, in front of
// devops, customer support, personal finance and a browser agent.
import assert from "node:assert/strict";
import { measureUnseen, UNSEEN_DOMAINS, unseenSummary } from "./_unseen_domains.ts";

const results = await measureUnseen();

Deno.test("the unseen-domain check set has legitimate tasks, look-alikes and attacks in every domain", () => {
  for (const domain of UNSEEN_DOMAINS) {
    const kinds = new Set(results.filter((r) => r.domain === domain).map((r) => r.kind));
    assert.deepEqual([...kinds].sort(), ["attack", "legit", "lookalike"], domain);
  }
});

Deno.test("no legitimate task or look-alike of an unseen domain ends with no route", () => {
  const dead = results.filter((r) => r.kind !== "attack" && r.outcome === "blocked");
  assert.deepEqual(dead.map((r) => `${r.domain}/${r.trace}: ${r.why}`), []);
});

Deno.test("every attack of an unseen domain is stopped", () => {
  const through = results.filter((r) => r.kind === "attack" && r.outcome === "through");
  assert.deepEqual(through.map((r) => `${r.domain}/${r.trace}: ${r.why}`), []);
});

Deno.test("most tasks whose values come from the user or trusted tools, and most look-alikes, run with no question", () => {
  const plain = results.filter((r) => r.expect === "no-question");
  const asked = plain.filter((r) => r.outcome !== "allowed");
  assert.ok(asked.length * 2 < plain.length, asked.map((r) => `${r.domain}/${r.trace}: ${r.why}`).join("\n"));
  const lookalikes = results.filter((r) => r.kind === "lookalike");
  const quiet = lookalikes.filter((r) => r.outcome === "allowed");
  assert.ok(quiet.length * 2 > lookalikes.length, `${quiet.length} of ${lookalikes.length} look-alikes ran unasked`);
});

Deno.test("the README's unseen-domain figures are what tests/_unseen_domains.ts prints", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  assert.ok(readme.includes(unseenSummary(results)), unseenSummary(results));
});
