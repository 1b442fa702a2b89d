/**
 * `deno task start` downloads only what the demo needs. `deno task` installs
 * every package of deno.lock before it runs a task, and `deno run` resolves
 * every literal `import()` of cli.ts against deno.lock before it starts (both
 * checked by hand with a fresh DENO_DIR; the README's Layout section has the
 * command and the counts). So these tests check, without downloading anything,
 * that deno.lock holds exactly the packages of the code that `deno run cli.ts`
 * resolves, and that this code reaches every command but not the MCP SDK,
 * which only `pab mcp` and `pab generate --server` load, under adapters/mcp/deno.lock.
 */
import assert from "node:assert/strict";
import { SDK_MODULES } from "../adapters/cli/mcp/mcp_sdk.ts";
import { COMPILE_TARGETS, compileArgs } from "../adapters/build/release.ts";
import { moduleGraph, npmNames, ROOT } from "./_module_graph.ts";

const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
const rootLock = JSON.parse(await Deno.readTextFile(`${ROOT}deno.lock`));

/** The package names a lock pins (`@noble/hashes@2.4.0` -> `@noble/hashes`). */
function lockNames(lock: { npm: Record<string, unknown> }): string[] {
  return Object.keys(lock.npm).map((key) => key.split("_")[0].replace(/@[^@]+$/, "")).sort();
}

/** The repository's files among a graph's modules. */
function localFiles(modules: Iterable<string>): string[] {
  return [...modules].filter((module) => !/^[a-z]+:/.test(module)).sort();
}

Deno.test("deno task start runs cli.ts under deno.lock: the pab task names no other lock", () => {
  assert.equal(config.tasks.start, "deno task pab demo");
  assert.doesNotMatch(config.tasks.pab, /--lock|--no-lock/);
  assert.match(config.tasks.pab, /^deno run .* cli\.ts$/);
  assert.equal(config.lock.frozen, true);
  assert.equal(config.lock.path ?? "deno.lock", "deno.lock");
});

Deno.test("deno.lock pins exactly the packages of the code deno run cli.ts resolves, and the demo uses each", async () => {
  const graph = await moduleGraph("cli.ts");
  const resolved = graph.code(true);
  // What deno run resolves names only deno.lock's packages (dependencies of a package are in the lock, not the graph).
  const direct = npmNames(resolved);
  assert.deepEqual(direct, ["@noble/hashes", "js-yaml", "jsonc-parser"]);
  assert.deepEqual(lockNames(rootLock), [...direct, "argparse"].sort()); // argparse is js-yaml's dependency
  // ...and the demo itself loads every one of them: deno.lock holds nothing the demo can do without.
  const demo = new Set([
    ...(await moduleGraph("cli.ts")).code(false),
    ...(await moduleGraph("adapters/cli/commands/demo.ts")).code(false),
  ]);
  assert.deepEqual(npmNames(demo), direct);
});

Deno.test("the code deno run cli.ts resolves reaches every command and benchmark, so deno compile embeds them", async () => {
  const resolved = new Set(localFiles((await moduleGraph("cli.ts")).code(true)));
  const commands = ["check", "lint", "demo", "bench", "generate", "mcp", "playground", "serve", "audit", "hook"];
  const benches = ["bench_office", "bench_agentdojo", "bench_trace_memory", "bench_perf"];
  for (const name of commands) assert.ok(resolved.has(`adapters/cli/commands/${name}.ts`), name);
  for (const name of benches) assert.ok(resolved.has(`adapters/cli/bench/${name}.ts`), name);
  // The modules that load the MCP SDK are the exception: loaded by name, embedded by deno compile's --include.
  for (const module of SDK_MODULES) assert.ok(!resolved.has(module), module);
  const all = (await moduleGraph("cli.ts")).all();
  for (const module of SDK_MODULES) assert.ok(all.has(module), `deno check cli.ts does not reach ${module}`);
  assert.ok(npmNames(all).includes("@modelcontextprotocol/sdk"));
});

Deno.test("deno compile and the release script embed the modules that load the MCP SDK, under adapters/mcp/deno.lock", () => {
  // The release workflow compiles through adapters/build/release.ts, whose arguments are the compile task's.
  const compiles = [
    config.tasks.compile as string,
    ...COMPILE_TARGETS.map((target) => ["deno", ...compileArgs(config.tasks.compile, target, "dist")].join(" ")),
  ];
  assert.equal(compiles.length, 6);
  for (const line of compiles) {
    const words = line.trim().split(/\s+/);
    const included = words.flatMap((word, i) => word === "--include" ? [words[i + 1]] : []);
    assert.deepEqual(included, [...SDK_MODULES], line);
    assert.ok(words.includes("--lock=adapters/mcp/deno.lock") && words.includes("--frozen"), line);
  }
});

/** Run cli.ts under deno.lock with `flags`. */
async function pab(flags: string[], args: string[]) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...flags, "cli.ts", ...args],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

Deno.test("pab generate --server under deno.lock exits 2 with ERR_CLI_DEPENDENCY naming adapters/mcp/deno.lock; pab mcp needs no SDK", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "pab-lock-" });
  try {
    await Deno.writeTextFile(`${dir}/p.yaml`, "version: 1\n");
    const flags = ["--allow-read", "--allow-run", "--allow-env"];
    const result = await pab(flags, ["generate", "--server", "--", "true"]);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stdout, "");
    assert.match(
      result.stderr,
      /^error: Cannot load the MCP SDK for pab generate --server: the lock file it runs under does not pin it /,
    );
    assert.match(
      result.stderr,
      /run with --lock=adapters\/mcp\/deno\.lock, which pins it: npx -y deno@2\.9\.6 run --lock=adapters\/mcp\/deno\.lock /,
    );
    // pab mcp reads and writes JSON-RPC itself (the SDK gives it types only): it runs under deno.lock too.
    const proxy = await pab(flags, ["mcp", "--policy", `${dir}/p.yaml`, "--", "true"]);
    assert.equal(proxy.code, 0, proxy.stderr);
    assert.equal(proxy.stdout, "");
    // (Its stdin is empty, so the session ends as soon as it starts: whichever side ends first.)
    assert.match(proxy.stderr, /^(pab mcp: the server exited; closing\n)?$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
