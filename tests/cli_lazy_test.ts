/**
 * The command line loads only the command being run: `COMMANDS` and `BENCHES`
 * import each module when its command runs, so `pab check` does not pay for
 * the HTTP server, the playground, the HTML report or the benchmarks (memory:
 * `pab bench trace-memory`).
 */
import assert from "node:assert/strict";
import { BENCHES, COMMANDS } from "../adapters/cli/mod.ts";
import { moduleGraph, npmNames } from "./_module_graph.ts";

Deno.test("COMMANDS: each entry loads the command of its name, whose summary is the entry's", async () => {
  assert.deepEqual(Object.keys(COMMANDS), [
    "check",
    "lint",
    "demo",
    "bench",
    "generate",
    "mcp",
    "playground",
    "serve",
    "audit",
    "hook",
  ]);
  for (const [name, entry] of Object.entries(COMMANDS)) {
    const command = await entry.load();
    assert.equal(command.name, name);
    assert.equal(command.summary, entry.summary, name);
    assert.match(command.help, new RegExp(`^Usage: pab ${name}\\b`), name);
  }
});

Deno.test("BENCHES: each entry's summary is the summary of the benchmark it runs", async () => {
  const loaded = {
    office: (await import("../adapters/cli/bench/bench_office.ts")).officeBench,
    agentdojo: (await import("../adapters/cli/bench/bench_agentdojo.ts")).agentdojoBench,
    "trace-memory": (await import("../adapters/cli/bench/bench_trace_memory.ts")).traceMemoryBench,
    serve: (await import("../adapters/cli/bench/bench_serve.ts")).serveBench,
    perf: (await import("../adapters/cli/bench/bench_perf.ts")).perfBench,
  };
  assert.deepEqual(Object.keys(BENCHES), Object.keys(loaded));
  for (const [name, bench] of Object.entries(loaded)) assert.equal(BENCHES[name].summary, bench.summary, name);
});

/** The folders and command modules a graph's local modules fall in. */
function places(modules: Iterable<string>): Set<string> {
  return new Set(
    [...modules].filter((module) => module.startsWith("adapters/")).map((module) =>
      module.startsWith("adapters/cli/") ? module : module.split("/").slice(0, 2).join("/")
    ),
  );
}

Deno.test("cli.ts loads no command before it knows which one runs", async () => {
  const loaded = (await moduleGraph("cli.ts")).code(false);
  const commands = ["check", "lint", "demo", "generate", "mcp", "playground", "serve", "audit", "hook"];
  for (const name of commands) assert.ok(!loaded.has(`adapters/cli/commands/${name}.ts`), name);
  for (const name of ["office", "agentdojo", "trace_memory", "perf"]) {
    assert.ok(!loaded.has(`adapters/cli/bench/bench_${name}.ts`));
  }
  assert.deepEqual([...places(loaded)].filter((place) => !place.startsWith("adapters/cli/")), []);
  assert.deepEqual(npmNames(loaded), ["@noble/hashes"]);
});

Deno.test("pab check loads the guard, the trace readers and the policy parser, and nothing it does not run", async () => {
  const loaded = places((await moduleGraph("adapters/cli/commands/check.ts")).code(false));
  assert.ok(loaded.has("adapters/trace"));
  for (const place of ["adapters/html", "adapters/playground", "adapters/serve", "adapters/store", "adapters/mcp"]) {
    assert.ok(!loaded.has(place), `pab check loads ${place}`);
  }
  for (const place of ["adapters/agentdojo", "adapters/office", "adapters/build", "adapters/audit"]) {
    assert.ok(!loaded.has(place), `pab check loads ${place}`);
  }
  // The trace-memory benchmark measures pab check, and loads no other benchmark.
  const bench = places((await moduleGraph("adapters/cli/bench/bench_trace_memory.ts")).code(false));
  assert.ok(!bench.has("adapters/cli/bench/bench_agentdojo.ts") && !bench.has("adapters/cli/bench/bench_perf.ts"));
  assert.ok(!bench.has("adapters/html") && !bench.has("adapters/agentdojo"));
});
