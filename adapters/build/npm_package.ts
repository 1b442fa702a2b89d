/**
 * Build the npm package into `dist/npm/` (`deno task npm`): one ES module per
 * door of `deno.json` (less `./cli`), code-split so the doors share one copy
 * of the guard (an `instanceof ToolCallDenied` holds across doors), with
 * js-yaml, jsonc-parser and @noble/hashes inlined at the versions the
 * lock pins, type declarations per door, and `package.json`, README, licence
 * and changelog. The MCP SDK stays a (peer) import of the MCP door.
 *
 * A door's module graph is checked like the browser bundle: the core door's
 * must run with no Deno, Node or file-system API.
 *
 * @module
 */
import { dirname, join, relative } from "node:path";
import { bundleProblems, REPO_ROOT } from "./bundle.ts";
import { writeNpmDeclarations } from "./npm_declarations.ts";
import { type NpmDoor, npmDoors, npmManifest, type PackageConfig } from "./npm_manifest.ts";

/** The changelog, one `## VERSION` section per release, newest first; the npm package and the release carry it. */
export const CHANGELOG = "adapters/build/CHANGELOG.md";

/** What {@linkcode buildNpmPackage} wrote. */
export interface NpmPackageReport {
  /** The package folder. */
  readonly dir: string;
  /** Its `package.json`. */
  readonly manifest: Record<string, unknown>;
  /** Its doors. */
  readonly doors: readonly NpmDoor[];
  /** Every file written, relative to the package folder, sorted. */
  readonly files: readonly string[];
}

/** The MCP SDK, as pab's source imports it, and as the package imports it. */
const MCP_SDK = { specifier: "npm:@modelcontextprotocol/sdk@1.32.2/", npm: "@modelcontextprotocol/sdk/" };

/**
 * The changelog section of `version`: its lines after `## VERSION`, up to the
 * next section. Throws an `Error` naming the file when there is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changelogSection } from "./npm_package.ts";
 * const text = "# Changelog\n\n## 0.2.0\n\n- New\n\n## 0.1.0\n\n- First\n";
 * assert.equal(changelogSection(text, "0.1.0"), "- First");
 * assert.throws(() => changelogSection(text, "0.3.0"), /no "## 0.3.0" section/);
 * ```
 */
export function changelogSection(changelog: string, version: string): string {
  const sections = changelog.split(/^## /m).slice(1);
  const section = sections.find((text) => text.split("\n", 1)[0].trim() === version);
  if (section === undefined) {
    throw new Error(`Cannot find the changes of ${version}: ${CHANGELOG} has no "## ${version}" section; add one`);
  }
  return section.slice(section.indexOf("\n") + 1).trim();
}

/**
 * The `deno.json` keys the package is made from.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { packageConfig } from "./npm_package.ts";
 * const config = await packageConfig();
 * assert.equal(config.name, "@pab/pab");
 * assert.equal(config.exports["."], "./mod.ts");
 * ```
 */
export async function packageConfig(root: string = REPO_ROOT): Promise<PackageConfig> {
  const config = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
  return { name: config.name, version: config.version, license: config.license, exports: config.exports };
}

/**
 * Every module a module imports, transitively, by relative path (the chunks
 * of a code-split build), the module itself included.
 *
 * @example
 * ```ts ignore
 * import assert from "node:assert/strict";
 * import { moduleGraph } from "./npm_package.ts";
 * const files = await moduleGraph("dist/npm/esm/adapters/build/core.js");
 * assert.ok(files.some((file) => file.includes("/chunk-")));
 * ```
 */
export async function moduleGraph(path: string): Promise<string[]> {
  const seen = new Set<string>();
  const stack = [path];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = await Deno.readTextFile(file);
    for (const match of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[^"';]*?\s*from\s*)?"(\.{1,2}\/[^"]+)"/g)) {
      stack.push(join(dirname(file), match[1]));
    }
  }
  return [...seen].sort();
}

/**
 * What in a door's module graph an edge runtime could not run: like
 * {@linkcode bundleProblems}, except that imports between the package's own
 * modules are allowed.
 *
 * @example
 * ```ts ignore
 * import assert from "node:assert/strict";
 * import { edgeProblems } from "./npm_package.ts";
 * assert.deepEqual(await edgeProblems("dist/npm/esm/adapters/build/core.js"), []);
 * ```
 */
export async function edgeProblems(path: string): Promise<string[]> {
  const problems: string[] = [];
  for (const file of await moduleGraph(path)) {
    const own = (await Deno.readTextFile(file))
      .replace(/(^|[;\s}])(import|export)\s*([^"';]*?\s*from\s*)?"\.{1,2}\/[^"]+";?/g, "$1");
    for (const problem of bundleProblems(own)) problems.push(`${relative(dirname(path), file)}: ${problem}`);
  }
  return problems;
}

async function run(args: string[], what: string): Promise<void> {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: REPO_ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (code !== 0) throw new Error(`Cannot ${what}: deno exited with ${code}: ${new TextDecoder().decode(stderr)}`);
}

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(join(dir, prefix))) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) files.push(...await listFiles(dir, path));
    else files.push(path);
  }
  return files.sort();
}

/**
 * Build the npm package into `outDir` (emptied first). Throws an `Error` when
 * a step fails, or when the core door's graph holds something an edge
 * runtime cannot run.
 *
 * @example
 * ```ts ignore
 * import assert from "node:assert/strict";
 * import { buildNpmPackage } from "./npm_package.ts";
 * const report = await buildNpmPackage("/tmp/pab-npm");
 * assert.ok(report.files.includes("package.json"));
 * ```
 */
export async function buildNpmPackage(outDir: string): Promise<NpmPackageReport> {
  const config = await packageConfig();
  const doors = npmDoors(config.exports);
  const manifest = npmManifest(config, doors);
  const changelog = await Deno.readTextFile(join(REPO_ROOT, CHANGELOG));
  changelogSection(changelog, config.version);
  await Deno.remove(outDir, { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  await Deno.mkdir(outDir, { recursive: true });
  await run([
    "bundle",
    "--quiet",
    "--format",
    "esm",
    "--platform",
    "browser",
    "--code-splitting",
    "--external",
    `${MCP_SDK.specifier}*`,
    "--external",
    "node:*",
    "--config",
    join(REPO_ROOT, "deno.json"),
    "--lock=adapters/mcp/deno.lock",
    "--frozen",
    "--outdir",
    join(outDir, "esm"),
    ...doors.map((door) => door.entry),
  ], "bundle the npm package's modules");
  for (const file of await listFiles(join(outDir, "esm"))) {
    const path = join(outDir, "esm", file);
    const code = await Deno.readTextFile(path);
    await Deno.writeTextFile(path, code.replaceAll(`"${MCP_SDK.specifier}`, `"${MCP_SDK.npm}`));
  }
  const core = doors.find((door) => door.subpath === "./core");
  if (core) {
    const problems = await edgeProblems(join(outDir, core.module));
    if (problems.length) throw new Error(`Cannot ship the core door: its modules contain ${problems.join("; ")}`);
  }
  const workDir = await Deno.makeTempDir({ prefix: "pab-npm-types-" });
  try {
    await writeNpmDeclarations({ root: REPO_ROOT, outDir, workDir, doors });
  } finally {
    await Deno.remove(workDir, { recursive: true });
  }
  await Deno.writeTextFile(join(outDir, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
  await Deno.copyFile(join(REPO_ROOT, "README.md"), join(outDir, "README.md"));
  await Deno.copyFile(join(REPO_ROOT, "LICENSE"), join(outDir, "LICENSE"));
  await Deno.writeTextFile(join(outDir, "CHANGELOG.md"), changelog);
  return { dir: outDir, manifest, doors, files: await listFiles(outDir) };
}

if (import.meta.main) {
  const outDir = join(REPO_ROOT, "dist", "npm");
  const report = await buildNpmPackage(outDir);
  console.log(`dist/npm: ${report.manifest.name}@${report.manifest.version}, ${report.files.length} files`);
  for (const door of report.doors) console.log(`  ${door.subpath.padEnd(16)} ${door.module}  ${door.types}`);
}
