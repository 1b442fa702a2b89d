/**
 * No module of pab reaches itself again through its imports: type-only and
 * dynamic imports count, so two files that need each other's types share a
 * third file instead (`adapters/cli/bench/benchmark.ts`,
 * `adapters/trace/trace_replay.ts`, `adapters/mcp/relay_options.ts`).
 */
import assert from "node:assert/strict";
import { ModuleGraph, moduleGraph, ROOT } from "./_module_graph.ts";

const url = (path: string) => new URL(path, `file://${ROOT}`).href;

Deno.test("ModuleGraph.cycle() finds a cycle of type-only or dynamic imports, and none in a tree", () => {
  const graph = (edges: Record<string, { code?: string; type?: string; isDynamic?: boolean }[]>) =>
    new ModuleGraph({
      roots: [url("a.ts")],
      modules: Object.entries(edges).map(([from, to]) => ({
        specifier: url(from),
        dependencies: to.map((edge) => ({
          specifier: "./x.ts",
          isDynamic: edge.isDynamic,
          code: edge.code ? { specifier: url(edge.code) } : undefined,
          type: edge.type ? { specifier: url(edge.type) } : undefined,
        })),
      })),
    });
  assert.deepEqual(graph({ "a.ts": [{ code: "b.ts", isDynamic: true }], "b.ts": [{ type: "a.ts" }] }).cycle(), [
    "a.ts",
    "b.ts",
    "a.ts",
  ]);
  assert.deepEqual(
    graph({ "a.ts": [{ code: "b.ts" }], "b.ts": [{ code: "c.ts" }], "c.ts": [{ type: "b.ts" }] }).cycle(),
    [
      "b.ts",
      "c.ts",
      "b.ts",
    ],
  );
  assert.equal(
    graph({ "a.ts": [{ code: "b.ts" }, { type: "c.ts" }], "b.ts": [{ code: "c.ts" }], "c.ts": [] }).cycle(),
    undefined,
  );
});

for (const entry of ["cli.ts", "mod.ts"]) {
  Deno.test(`the module graph of ${entry} has no import cycle, types and dynamic imports included`, async () => {
    assert.equal((await moduleGraph(entry)).cycle()?.join(" -> "), undefined);
  });
}
