/**
 * The npm package, for real: built by `deno task npm`'s code into a fresh
 * folder, packed by `npm pack`, installed from the tarball into a fresh Node
 * project next to the real `ai`, `@openai/agents` and MCP SDK packages, and
 * used there: the AI SDK and Agents JS examples run under Node with their
 * mock models, the MCP relay runs between an SDK client and server, the core
 * door runs under `deno run` with no permission at all (an edge function's
 * sandbox), and a TypeScript user of every door type-checks under `tsc`.
 *
 * npm's downloads are cached in `$PAB_NPM_CACHE` (default
 * `/tmp/pab-npm-cache`), and the SDKs, installed once there by `npm install`,
 * are linked into each fresh project (pab itself is installed fresh from its
 * tarball every time), so a second run takes seconds and needs no network.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "../adapters/build/bundle.ts";
import { npmDoors, npmManifest, PEER_DEPENDENCIES } from "../adapters/build/npm_manifest.ts";
import {
  buildNpmPackage,
  CHANGELOG,
  changelogSection,
  edgeProblems,
  moduleGraph,
  packageConfig,
} from "../adapters/build/npm_package.ts";

const FIXTURES = join(REPO_ROOT, "tests/fixtures/npm");
const NPM_CACHE = Deno.env.get("PAB_NPM_CACHE") ?? "/tmp/pab-npm-cache";
/** The packages the examples use, at the versions pab's tests pin (tests/import_map.json). */
const testMap = JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "tests/import_map.json")));
const pinned = (name: string) => /^npm:(?:@[^/]+\/)?[^@]+@([^/]+)/.exec(testMap.imports[name])![1];
/** TypeScript's own compiler checks a TypeScript user of the package (a test tool, like the SDKs: not pab's). */
const TYPESCRIPT = "typescript@5.9.3";
const USED = [
  ...["ai", "@openai/agents", "@modelcontextprotocol/sdk", "zod"].map((name) => `${name}@${pinned(name)}`),
  TYPESCRIPT,
];

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function run(command: string, args: string[], cwd: string): Promise<Ran> {
  const output = await new Deno.Command(command, {
    args,
    cwd,
    env: { npm_config_cache: NPM_CACHE, npm_config_update_notifier: "false", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

/**
 * A `node_modules` with the SDKs the examples use, installed by npm once per
 * set of versions and kept under the npm cache; a run that loses a race to
 * install it uses the winner's.
 */
async function sdkModules(): Promise<string> {
  const dir = join(NPM_CACHE, "pab-sdks", USED.join("+").replace(/[^\w.@+-]/g, "_"));
  const ready = await Deno.stat(join(dir, "installed")).then(() => true, () => false);
  if (ready) return join(dir, "node_modules");
  await Deno.mkdir(join(NPM_CACHE, "pab-sdks"), { recursive: true });
  const fresh = await Deno.makeTempDir({ dir: join(NPM_CACHE, "pab-sdks"), prefix: "installing-" });
  await Deno.writeTextFile(join(fresh, "package.json"), JSON.stringify({ name: "pab-sdks", private: true }));
  ok(await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", ...USED], fresh), "npm install");
  await Deno.writeTextFile(join(fresh, "installed"), USED.join("\n"));
  await Deno.rename(fresh, dir).catch(() => Deno.remove(fresh, { recursive: true }));
  return join(dir, "node_modules");
}

function ok(ran: Ran, what: string): string {
  assert.equal(ran.code, 0, `${what} failed:\n${ran.stdout}\n${ran.stderr}`);
  return ran.stdout;
}

Deno.test("npmManifest() names every published door but the CLI, deno.json's version, and no runtime dependency", async () => {
  const config = await packageConfig();
  const manifest = npmManifest(config, npmDoors(config.exports));
  assert.equal(manifest.name, config.name);
  assert.equal(manifest.version, config.version);
  assert.deepEqual(Object.keys(manifest.exports as object), Object.keys(config.exports).filter((d) => d !== "./cli"));
  assert.deepEqual(manifest.dependencies, {});
  // The peers are the SDK versions the tests run against.
  for (const [name, range] of Object.entries(PEER_DEPENDENCIES)) assert.ok(range.includes(pinned(name)), name);
  assert.throws(() => npmManifest({ ...config, version: "1.0" }, []), /deno.json's version "1.0" is not a semantic/);
});

Deno.test("the changelog has a section for deno.json's version", async () => {
  const { version } = await packageConfig();
  const section = changelogSection(await Deno.readTextFile(join(REPO_ROOT, CHANGELOG)), version);
  assert.match(section, /^- /);
});

Deno.test("the npm package installs from its tarball into a fresh Node project and runs there", async () => {
  const work = await Deno.makeTempDir({ dir: "/tmp", prefix: "pab-npm-" });
  try {
    const report = await buildNpmPackage(join(work, "package"));
    // Every door's module and declarations are in the package; the core door's graph runs on an edge runtime.
    for (const door of report.doors) {
      assert.ok(report.files.includes(door.module.slice(2)), door.module);
      assert.ok(report.files.includes(door.types.slice(2)), door.types);
    }
    const core = report.doors.find((door) => door.subpath === "./core")!;
    assert.ok((await moduleGraph(join(report.dir, core.module))).some((file) => /\/chunk-\w+\.js$/.test(file)));
    assert.deepEqual(await edgeProblems(join(report.dir, core.module)), []);
    // The check sees through the chunks: the MCP door starts processes with Deno's API.
    const mcpDoor = report.doors.find((door) => door.subpath === "./mcp")!;
    const mcpProblems = (await edgeProblems(join(report.dir, mcpDoor.module))).join("\n");
    assert.match(mcpProblems, /the Deno namespace/);
    assert.ok(report.files.every((file) => !file.endsWith(".ts") || file.endsWith(".d.ts")), "no source file");

    const packed = JSON.parse(
      ok(await run("npm", ["pack", "--json", "--pack-destination", work], report.dir), "npm pack"),
    );
    const tarball = join(work, packed[0].filename);
    const inTarball = packed[0].files.map((file: { path: string }) => file.path).sort();
    assert.deepEqual(inTarball, [...report.files].sort());

    const project = join(work, "project");
    await Deno.mkdir(project);
    await Deno.writeTextFile(
      join(project, "package.json"),
      JSON.stringify({ name: "pab-npm-check", private: true, type: "module" }),
    );
    ok(await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball], project), "npm install");
    // The SDKs, linked from their cached install, and named as the project's dependencies (Deno reads them there).
    const sdks = await sdkModules();
    const manifest = JSON.parse(await Deno.readTextFile(join(project, "package.json")));
    for (const spec of USED) {
      const name = spec.replace(/(.)@.*$/, "$1");
      await Deno.mkdir(join(project, "node_modules", name, ".."), { recursive: true });
      // ln, not Deno.symlink: the test's write permission is scoped to /tmp, which Deno.symlink does not accept.
      ok(await run("ln", ["-s", join(sdks, name), join(project, "node_modules", name)], project), "ln");
      manifest.dependencies[name] = spec.slice(name.length + 1);
    }
    assert.deepEqual(
      Object.keys(manifest.dependencies).sort(),
      ["@pab/pab", ...USED.map((s) => s.replace(/(.)@.*$/, "$1"))].sort(),
    );
    await Deno.writeTextFile(join(project, "package.json"), JSON.stringify(manifest));
    for (const file of ["ai_sdk_example.mjs", "openai_agents_example.mjs", "mcp_relay_example.mjs", "edge_core.mjs"]) {
      await Deno.copyFile(join(FIXTURES, file), join(project, file));
    }
    const aiSdk = JSON.parse(ok(await run("node", ["ai_sdk_example.mjs"], project), "the AI SDK example"));
    assert.deepEqual(aiSdk, { asked: 1, sent: [], text: "Done." });
    const agents = JSON.parse(ok(await run("node", ["openai_agents_example.mjs"], project), "the Agents JS example"));
    assert.deepEqual(agents, { sent: ["alice@corp.example"], rejected: 1, finalOutput: "Done." });
    const mcp = JSON.parse(ok(await run("node", ["mcp_relay_example.mjs"], project), "the MCP relay example"));
    assert.deepEqual(mcp, { tools: 2, denied: true, sent: [] });

    // No permission flag at all, and no prompt: what an edge function's sandbox grants.
    const edge = JSON.parse(
      ok(await run(Deno.execPath(), ["run", "--no-prompt", "--no-lock", "edge_core.mjs"], project), "the edge run"),
    );
    for (const [what, result] of Object.entries(edge.denied)) {
      assert.match(String(result), /NotCapable|Requires \w+ access/, `${what} must be denied: ${result}`);
    }
    assert.match(edge.blocked, /^send_email: block\n- \[untrusted-argument\] to='eve@attacker\.example'/);

    // A TypeScript user of every door, checked by tsc as Node projects resolve packages (nodenext, strict).
    await Deno.copyFile(join(FIXTURES, "consumer.ts"), join(project, "consumer.ts"));
    await Deno.copyFile(join(FIXTURES, "tsconfig.json"), join(project, "tsconfig.json"));
    ok(await run("node", [join(sdks, "typescript/bin/tsc"), "-p", "."], project), "tsc on a TypeScript user");
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});
