/**
 * Every property test prints fast-check's seed when it fails, so a red CI run can be replayed
 * (`fc.assert(property, { seed, path })`). `fc.assert` puts the seed in the error it throws; this
 * test keeps anything from hiding it: no `fc.check` (its failure is a value nobody reports), no
 * custom reporter, no `fc.assert` inside a `try`, and `fc.sample`/`fc.statistics` only with a fixed
 * seed (their draws are never reported).
 */
import assert from "node:assert/strict";

/** The ways a file can lose a failing property's seed, each with the line it starts on. */
function seedLosses(source: string): string[] {
  const losses: string[] = [];
  const lineOf = (index: number) => source.slice(0, index).split("\n").length;
  for (const match of source.matchAll(/\bfc\.check\s*\(/g)) {
    losses.push(`line ${lineOf(match.index)}: fc.check() returns its failure instead of throwing it`);
  }
  for (const match of source.matchAll(/\b(?:reporter|asyncReporter)\s*:/g)) {
    losses.push(`line ${lineOf(match.index)}: a custom reporter replaces the report that carries the seed`);
  }
  for (const match of source.matchAll(/\bfc\.(?:sample|statistics)\s*\(/g)) {
    const call = source.slice(match.index, source.indexOf(";", match.index));
    if (!/\bseed\s*:/.test(call)) {
      losses.push(`line ${lineOf(match.index)}: ${match[0].slice(0, -1)} draws with an unreported seed`);
    }
  }
  for (const match of source.matchAll(/\btry\s*\{/g)) {
    const end = closingBrace(source, match.index + match[0].length - 1);
    const caught = /^\s*catch\b/.test(source.slice(end + 1));
    if (caught && /\bfc\.assert\s*\(/.test(source.slice(match.index, end))) {
      losses.push(`line ${lineOf(match.index)}: fc.assert() inside a try with a catch may swallow its seed`);
    }
  }
  return losses;
}

/** The index of the brace that closes the one at `open` (braces counted, which test sources keep balanced). */
function closingBrace(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === "{") depth++;
    if (source[i] === "}" && --depth === 0) return i;
  }
  return source.length;
}

Deno.test("seedLosses() finds each way a property test can hide its seed", () => {
  const hiding = [
    "const r = fc.check(fc.property(fc.nat(), () => true));",
    "fc.assert(p, { reporter: () => {} });",
    "const xs = fc.sample(fc.nat(), 10);",
    "try {\n  fc.assert(p);\n} catch { /* ignored */ }",
  ];
  for (const source of hiding) assert.equal(seedLosses(source).length, 1, source);
  const reporting = [
    "fc.assert(p);\nconst xs = fc.sample(fc.nat(), { numRuns: 9, seed: 4 });",
    "try {\n  fc.assert(p);\n} finally {\n  cleanUp();\n}\ntry {\n  if (x) { y(); }\n} catch {\n  z();\n}",
  ];
  for (const source of reporting) assert.deepEqual(seedLosses(source), [], source);
});

Deno.test("every property test in tests/ reports fast-check's seed on failure", async () => {
  const losses: string[] = [];
  const folder = new URL("./", import.meta.url);
  for await (const entry of Deno.readDir(folder)) {
    if (!entry.isFile || !entry.name.endsWith(".ts") || entry.name === "property_seeds_test.ts") continue;
    const source = await Deno.readTextFile(new URL(entry.name, folder));
    if (!source.includes("fast-check")) continue;
    losses.push(...seedLosses(source).map((loss) => `${entry.name} ${loss}`));
  }
  assert.deepEqual(losses, [], "replay needs the seed: use fc.assert, or pass { seed } to fc.sample");
});
