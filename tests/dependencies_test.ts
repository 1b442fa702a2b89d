/**
 * Two frozen lock files. `deno task` installs every package of deno.lock
 * before it runs any task (denoland/deno#28999), so deno.lock holds only what
 * the command line loads (the demo's packages, and the MCP SDK that `pab mcp`
 * and `pab generate --server` load under the `pab` task); tests/deno.lock adds
 * the packages only tests use, and the test task reads it with
 * tests/import_map.json. `deno publish` reads only deno.lock, so its dry run
 * runs here, on a copy of the package whose deno.lock is the tests' lock.
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

Deno.test("deno.lock holds exactly what deno.json's imports need, and no package only tests use", () => {
  const rootImports = Object.values(config.imports as Record<string, string>).map(packageOf);
  assert.deepEqual([...rootLock.workspace.dependencies].sort(), [...new Set(rootImports)].sort());
  assert.deepEqual(Object.keys(rootLock.npm).sort(), [...closure(rootLock, rootImports)].sort());
  const names = new Set(Object.keys(rootLock.npm).map(nameOf));
  for (const name of ["fast-check", "playwright-core", "quickjs-emscripten", "ai", "@openai/agents", "openai"]) {
    assert.ok(!names.has(name), `deno.lock holds ${name}, which only tests use: deno task start would download it`);
  }
  // The demo's own packages (the rest is the MCP SDK, which pab mcp loads under the same lock, and its test server).
  const demo = closure(rootLock, [
    "npm:zod@4.6.7",
    "npm:js-yaml@5.5.0",
    "npm:jsonc-parser@3.3.1",
    "npm:@noble/hashes@2.4.0",
  ]);
  assert.deepEqual([...demo].map(nameOf).sort(), ["@noble/hashes", "argparse", "js-yaml", "jsonc-parser", "zod"]);
  const mcp = closure(rootLock, [
    "npm:@modelcontextprotocol/sdk@1.32.2",
    "npm:@modelcontextprotocol/server-memory@2026.8.31",
  ]);
  assert.equal(new Set([...demo, ...mcp]).size, Object.keys(rootLock.npm).length);
});

Deno.test("tests/deno.lock pins every package of deno.lock identically, and the tests' import map extends deno.json's", () => {
  for (const [key, entry] of Object.entries(rootLock.npm)) assert.equal(testLock.npm[key]?.integrity, entry.integrity);
  for (const [name, target] of Object.entries(config.imports)) assert.equal(testMap.imports[name], target);
  assert.deepEqual(testLock.workspace, rootLock.workspace);
  const testImports = Object.values(testMap.imports as Record<string, string>).map(packageOf);
  for (const key of closure(testLock, testImports)) {
    assert.ok(testLock.npm[key], key);
  }
});

Deno.test("the test task and the check task read the tests' import map and lock", () => {
  assert.match(config.tasks.test, /deno test --import-map=tests\/import_map\.json --lock=tests\/deno\.lock /);
  assert.match(config.tasks["test-one"], /^deno test --import-map=tests\/import_map\.json --lock=tests\/deno\.lock /);
  assert.match(config.tasks.check, /deno doc --lint --lock=tests\/deno\.lock /);
  assert.equal(config.lock.frozen, true);
});

Deno.test("cli.ts's whole graph, dynamic imports included, resolves under deno.lock alone (frozen)", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "cli.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
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
