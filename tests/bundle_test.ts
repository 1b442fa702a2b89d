import assert from "node:assert/strict";
import { bundleProblems } from "../adapters/build/bundle.ts";
import { freshBundle } from "./_bundle_scenario.ts";

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

Deno.test("buildBundle() writes one self-contained minified module and measures it", async () => {
  const bundle = await freshBundle();
  try {
    assert.deepEqual(bundleProblems(bundle.code), []);
    assert.equal(bundle.minifiedBytes, new TextEncoder().encode(bundle.code).length);
    assert.ok(bundle.gzippedBytes > 0 && bundle.gzippedBytes < bundle.minifiedBytes / 2);
    assert.deepEqual([...bundle.gzipped.subarray(0, 2)], [0x1f, 0x8b]);
    assert.match(bundle.code, /export\{[^}]*\bparsePolicy\b[^}]*\}/);
    // The README's figure is this command's output: keep them equal.
    const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
    const figure = `${bundle.minifiedBytes.toLocaleString("en-US")} bytes minified, ` +
      `${bundle.gzippedBytes.toLocaleString("en-US")} bytes gzipped`;
    assert.ok(readme.includes(figure), `README.md must say "${figure}" (run deno task bundle)`);
  } finally {
    await Deno.remove(bundle.dir, { recursive: true });
  }
});
