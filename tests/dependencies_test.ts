/**
 * Three frozen lock files. `deno task` installs every package of deno.lock
 * before it runs any task (denoland/deno#28999), and `deno run` installs every
 * package of the lock it runs under and resolves every literal `import()` of
 * the program against it. So deno.lock holds only the demo's packages (the
 * closure of deno.json's imports, which is what cli.ts's code graph needs);
 * adapters/mcp/deno.lock adds the MCP SDK, which only `pab mcp` and `pab generate --server`
 * load (by non-literal imports, adapters/cli/mcp/mcp_sdk.ts), for them, for
 * `deno check` and for `deno compile`; tests/deno.lock adds the packages only
 * tests use, and the test task reads it with tests/import_map.json.
 * `deno publish` reads only deno.lock, so its dry run runs here, on a copy of
 * the package whose deno.lock is the tests' lock.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

interface Lock {
  readonly specifiers: Record<string, string>;
  readonly npm: Record<string, { integrity: string; dependencies?: string[]; optionalDependencies?: string[] }>;
  readonly workspace: { readonly dependencies: readonly string[] };
}

const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
const testMap = JSON.parse(await Deno.readTextFile(`${ROOT}tests/import_map.json`));
const rootLock: Lock = JSON.parse(await Deno.readTextFile(`${ROOT}deno.lock`));
const testLock: Lock = JSON.parse(await Deno.readTextFile(`${ROOT}tests/deno.lock`));
const mcpLock: Lock = JSON.parse(await Deno.readTextFile(`${ROOT}adapters/mcp/deno.lock`));
const SDK = "npm:@modelcontextprotocol/sdk@1.32.2";
const TEST_ONLY = ["fast-check", "playwright-core", "quickjs-emscripten", "ai", "@openai/agents", "openai"];

/** `npm:zod@4.6.7/mini` -> `npm:zod@4.6.7`. */
function packageOf(specifier: string): string {
  return /^npm:(@[^/]+\/[^/@]+|[^/@]+)@[^/]+/.exec(specifier)![0];
}

/** The name of a lock key such as `@ai-sdk/gateway@4.0.146_zod@4.6.7`. */
function nameOf(key: string): string {
  return key.split("_")[0].replace(/@[^@]+$/, "");
}

/** Every package key reachable from `roots` in `lock`. */
function closure(lock: Lock, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const byName = new Map(Object.keys(lock.npm).map((key) => [nameOf(key), key]));
  const stack = roots.map((specifier) => {
    const name = packageOf(specifier).slice(4).replace(/@[^@]+$/, "");
    return `${name}@${lock.specifiers[packageOf(specifier)]}`;
  });
  while (stack.length) {
    const key = stack.pop()!;
    if (seen.has(key)) continue;
    assert.ok(lock.npm[key], `the lock has no entry for ${key}`);
    seen.add(key);
    for (const dependency of [...lock.npm[key].dependencies ?? [], ...lock.npm[key].optionalDependencies ?? []]) {
      stack.push(lock.npm[dependency] ? dependency : byName.get(dependency)!);
    }
  }
  return seen;
}

Deno.test("deno.lock holds exactly what deno.json's imports need: the demo's packages, and nothing else", () => {
  const rootImports = Object.values(config.imports as Record<string, string>).map(packageOf);
  assert.deepEqual([...rootLock.workspace.dependencies].sort(), [...new Set(rootImports)].sort());
  assert.deepEqual(Object.keys(rootLock.npm).sort(), [...closure(rootLock, rootImports)].sort());
  // deno task start downloads exactly these (tests/start_downloads_test.ts checks that the demo needs them all).
  assert.deepEqual(Object.keys(rootLock.npm).map(nameOf).sort(), [
    "@noble/hashes",
    "argparse",
    "js-yaml",
    "jsonc-parser",
  ]);
});

Deno.test("adapters/mcp/deno.lock is deno.lock plus the MCP SDK, each package pinned identically, and no test-only package", () => {
  const rootImports = Object.values(config.imports as Record<string, string>).map(packageOf);
  assert.deepEqual(mcpLock.workspace, rootLock.workspace);
  for (const [key, entry] of Object.entries(rootLock.npm)) assert.deepEqual(mcpLock.npm[key], entry, key);
  assert.deepEqual(Object.keys(mcpLock.npm).sort(), [...closure(mcpLock, [...rootImports, SDK])].sort());
  assert.deepEqual(Object.keys(mcpLock.specifiers).sort(), [...new Set([...rootImports, SDK])].sort());
  const names = new Set(Object.keys(mcpLock.npm).map(nameOf));
  for (const name of [...TEST_ONLY, "@modelcontextprotocol/server-memory"]) assert.ok(!names.has(name), name);
  // The SDK never reaches deno.lock, whose packages deno task start downloads.
  assert.ok(!Object.keys(rootLock.npm).some((key) => nameOf(key) === "@modelcontextprotocol/sdk"));
});

Deno.test("tests/deno.lock pins every package of adapters/mcp/deno.lock identically, and the tests' import map extends deno.json's", () => {
  for (const [key, entry] of Object.entries(mcpLock.npm)) assert.equal(testLock.npm[key]?.integrity, entry.integrity);
  for (const [name, target] of Object.entries(config.imports)) assert.equal(testMap.imports[name], target);
  assert.deepEqual(testLock.workspace, rootLock.workspace);
  const testImports = Object.values(testMap.imports as Record<string, string>).map(packageOf);
  for (const key of closure(testLock, testImports)) {
    assert.ok(testLock.npm[key], key);
  }
});

Deno.test("the test task and the check task read the tests' import map and lock", () => {
  assert.match(config.tasks.test, /deno test --import-map=tests\/import_map\.json --lock=tests\/deno\.lock --frozen /);
  assert.match(
    config.tasks["test-one"],
    /^deno test --import-map=tests\/import_map\.json --lock=tests\/deno\.lock --frozen /,
  );
  assert.match(config.tasks.check, /deno doc --lint --lock=tests\/deno\.lock --frozen /);
  // deno check follows types too, into the modules that load the MCP SDK.
  assert.match(config.tasks.check, /deno check --lock=adapters\/mcp\/deno\.lock --frozen mod\.ts cli\.ts /);
  assert.equal(config.lock.frozen, true);
});

Deno.test("cli.ts's whole graph, types included, resolves under adapters/mcp/deno.lock alone (frozen)", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--lock=adapters/mcp/deno.lock", "cli.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const info = JSON.parse(new TextDecoder().decode(output.stdout));
  assert.ok(Object.keys(info.npmPackages).some((id) => id.startsWith("@modelcontextprotocol/sdk@")));
});

async function copyPackage(from: string, to: string): Promise<void> {
  for await (const entry of Deno.readDir(from)) {
    if ([".git", ".venv", "node_modules", "dist", "traces", "tests", "python", ".ci"].includes(entry.name)) continue;
    if (entry.isDirectory) {
      await Deno.mkdir(`${to}/${entry.name}`);
      await copyPackage(`${from}/${entry.name}`, `${to}/${entry.name}`);
    } else if (entry.isFile) {
      await Deno.copyFile(`${from}/${entry.name}`, `${to}/${entry.name}`);
    }
  }
}

Deno.test("the package passes deno publish --dry-run under the tests' lock (frozen)", async () => {
  const copy = await Deno.makeTempDir({ dir: "/tmp", prefix: "pab-publish-" });
  try {
    await copyPackage(ROOT.replace(/\/$/, ""), copy);
    await Deno.copyFile(`${ROOT}tests/deno.lock`, `${copy}/deno.lock`);
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["publish", "--dry-run", "--allow-dirty", "--quiet"],
      cwd: copy,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    assert.deepEqual(await Deno.readTextFile(`${copy}/deno.lock`), await Deno.readTextFile(`${ROOT}tests/deno.lock`));
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
});
