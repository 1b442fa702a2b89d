import assert from "node:assert/strict";
import { join } from "node:path";
import {
  buildBundle,
  bundleProblems,
  type BundleReport,
  BUNDLES,
  declarationsFile,
  REPO_ROOT,
  sizeLine,
} from "../adapters/build/bundle.ts";
import { declaredNames, entryExports } from "../adapters/build/declarations.ts";
import { formatBreakdown } from "../adapters/build/size_breakdown.ts";
import * as core from "../core/mod.ts";
import * as guard from "../guard/mod.ts";
import * as mod from "../mod.ts";

/** Every value the bundle entries may re-export, by name: the root door and the core and guard doors. */
const doors: Readonly<Record<string, unknown>> = { ...core, ...guard, ...mod };

const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
const CORE_BUDGET_GZIPPED = 40 * 1024;

async function withBundles(
  declarations: boolean,
  check: (reports: Record<string, BundleReport>, dir: string) => void | Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "pab-bundles-" });
  try {
    const reports: Record<string, BundleReport> = {};
    for (const spec of BUNDLES) {
      reports[spec.name] = await buildBundle(join(dir, spec.file), { entry: spec.entry, declarations });
    }
    await check(reports, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("bundleProblems() names what a browser cannot run", () => {
  const samples: Record<string, string> = {
    "the Deno namespace": "let t=Deno.readTextFileSync(p);",
    "a node: module": 'import{readFileSync as r}from"node:fs";',
    "a CommonJS require()": 'var fs=require("fs");',
    "Node's process object": "var h=process.env.HOME;",
    "a CommonJS path global": "var d=__dirname;",
    "a dynamic import": 'await import("./x.js");',
    "import.meta": "var u=import.meta.url;",
    "a static import (the bundle must be self-contained)": 'var a=1;import{b}from"./b.js";',
    "a re-export from another module": 'export{b}from"./b.js";',
  };
  for (const [what, code] of Object.entries(samples)) {
    assert.ok(bundleProblems(code).some((problem) => problem.startsWith(what)), `${what}: ${bundleProblems(code)}`);
  }
  // Look-alikes a minifier leaves in clean code.
  assert.deepEqual(
    bundleProblems('var e={required:[],process(t){return t}};o.require=1;var s="from";export{e as a};'),
    [],
  );
});

Deno.test("buildBundle() writes self-contained minified modules, and the README quotes their sizes", async () => {
  await withBundles(false, (reports) => {
    for (const spec of BUNDLES) {
      const bundle = reports[spec.name];
      assert.deepEqual(bundleProblems(bundle.code), []);
      assert.equal(bundle.minifiedBytes, new TextEncoder().encode(bundle.code).length);
      assert.ok(bundle.gzippedBytes > 0 && bundle.gzippedBytes < bundle.minifiedBytes / 2);
      assert.deepEqual([...bundle.gzipped.subarray(0, 2)], [0x1f, 0x8b]);
      assert.ok(bundle.code.startsWith(`// @ts-self-types="./${spec.file.replace(/\.js$/, ".d.ts")}"\n`));
      // The README's figure is this command's output: keep them equal.
      const figure = sizeLine(`dist/${spec.file}`, bundle.minifiedBytes, bundle.gzippedBytes);
      assert.ok(readme.includes(figure), `README.md must say "${figure}" (run deno task bundle)`);
    }
    assert.match(reports.full.code, /export\{[^}]*\bparsePolicy\b[^}]*\}/);
    assert.doesNotMatch(reports.core.code, /export\{[^}]*\bparsePolicy\b[^}]*\}/);
    assert.ok(
      reports.core.gzippedBytes <= CORE_BUDGET_GZIPPED,
      `the core bundle is ${reports.core.gzippedBytes} bytes gzipped, over ${CORE_BUDGET_GZIPPED}`,
    );
    // The README's breakdown of the core is what deno task bundle prints.
    const breakdown = formatBreakdown(reports.core.breakdown);
    assert.ok(readme.includes(breakdown), `README.md must hold the core breakdown:\n${breakdown}`);
  });
});

Deno.test("sizeBreakdown() of a bundle charges every byte, mostly to known modules", async () => {
  await withBundles(false, (reports) => {
    for (const [name, { breakdown }] of Object.entries(reports)) {
      const charged = breakdown.modules.reduce((sum, share) => sum + share.bytes, 0);
      assert.equal(charged + breakdown.unmapped, breakdown.total);
      assert.ok(breakdown.unmapped < breakdown.total * 0.02, `unmapped: ${breakdown.unmapped}`);
      const groups = breakdown.groups.map((group) => group.name);
      for (const expected of ["guard/", "core/", "harvest/"]) assert.ok(groups.includes(expected), groups.join());
      // npm packages are charged by package: the full bundle inlines js-yaml; the core inlines no package.
      assert.equal(groups.some((group) => group.startsWith("npm:js-yaml@")), name === "full", groups.join());
    }
  });
});

Deno.test("bundle type declarations export exactly the entries' names and type-check", async () => {
  await withBundles(true, async (reports, dir) => {
    for (const spec of BUNDLES) {
      const report = reports[spec.name];
      assert.equal(report.declarationsPath, declarationsFile(report.path));
      const declarations = await Deno.readTextFile(report.declarationsPath!);
      assert.doesNotMatch(declarations, /^import /m);
      const exported = /^export \{ ([^}]*) \};$/m.exec(declarations)?.[1].split(", ") ?? [];
      const names = await entryExports(join(REPO_ROOT, spec.entry), join(REPO_ROOT, "deno.json"));
      assert.deepEqual(exported, names);
      const declared = declaredNames(declarations);
      assert.deepEqual(names.filter((name) => !declared.has(name)), []);
      // The runtime exports are the entry's values, with the same identities as mod.ts's.
      const bundle = await import(`file://${report.path}`);
      const entry = await import(`file://${join(REPO_ROOT, spec.entry)}`);
      assert.deepEqual(Object.keys(bundle).sort(), Object.keys(entry).sort());
      assert.ok(Object.keys(entry).every((name) => names.includes(name)));
      for (const name of Object.keys(entry)) assert.equal(entry[name], doors[name], name);
    }
    // A consumer that uses both bundles through their declarations alone type-checks.
    const consumer = join(dir, "consumer.ts");
    await Deno.writeTextFile(
      consumer,
      `import { compilePolicy, type Decision, explainDecision, Guard, type Policy } from "./pab.core.min.js";
import { parsePolicy } from "./pab.min.js";
const policy: Policy = compilePolicy(JSON.parse('{"version": 1}'), "inline.json");
const decision: Decision = new Guard(policy).decide("send_email", { to: "a@b.example" });
const text: string = explainDecision(decision);
const yaml: Policy = parsePolicy("version: 1", { source: "p.yaml" });
// @ts-expect-error the core bundle has no YAML parser
import { parsePolicy as missing } from "./pab.core.min.js";
export { missing, text, yaml };
`,
    );
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--no-config", "--quiet", consumer],
      cwd: dir,
      stderr: "piped",
    }).output();
    assert.equal(code, 0, new TextDecoder().decode(stderr));
  });
});
