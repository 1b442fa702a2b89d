/**
 * Make a release's files in one folder (default `dist/release/`): the npm
 * package's tarball (`npm pack` of `deno task npm`'s build), `pab` compiled
 * for five targets with exactly the flags of `deno task compile` (the sandbox
 * of `deno task pab`), and `SHA256SUMS` over all of them; the release notes
 * (the changelog's section of `deno.json`'s version) go beside the folder.
 * `.github/workflows/release.yml` runs this file, then attests the files'
 * build provenance and uploads them; `tests/release_test.ts` runs it here.
 *
 * `deno compile` downloads its runtime (`denort`) from dl.deno.land. Where that
 * host cannot be reached, this says so and makes everything else, unless
 * `--require-binaries` (the workflow's) makes it a failure.
 *
 * Usage: `deno run -A adapters/build/release.ts [--out DIR] [--tag vVERSION] [--require-binaries]`
 *
 * @module
 */
import { errorText } from "../../core/mod.ts";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "./bundle.ts";
import { buildNpmPackage, CHANGELOG, changelogSection, packageConfig } from "./npm_package.ts";

/**
 * Where the release files go unless `--out` says otherwise, relative to the
 * repository (the notes go beside it, in `dist/release-notes.md`); the
 * release workflow attests and uploads this folder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RELEASE_DIR } from "./release.ts";
 * assert.equal(RELEASE_DIR, "dist/release");
 * ```
 */
export const RELEASE_DIR = "dist/release";

/** One `deno compile` target and the file it makes. */
export interface CompileTarget {
  /** Rust target triple, as `deno compile --target` takes it. */
  readonly target: string;
  /** The release file. */
  readonly file: string;
}

/** The five targets of a release. */
export const COMPILE_TARGETS: readonly CompileTarget[] = Object.freeze([
  { target: "x86_64-unknown-linux-gnu", file: "pab-linux-x64" },
  { target: "aarch64-unknown-linux-gnu", file: "pab-linux-arm64" },
  { target: "x86_64-apple-darwin", file: "pab-macos-x64" },
  { target: "aarch64-apple-darwin", file: "pab-macos-arm64" },
  { target: "x86_64-pc-windows-msvc", file: "pab-windows-x64.exe" },
]);

/**
 * The `deno compile` arguments for one target: the flags of `deno task
 * compile` (everything between `compile` and `--output`), the target, the
 * output and the entry. Throws an `Error` when the task is not of that shape.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileArgs } from "./release.ts";
 * const task = "deno compile --unstable-kv --allow-read --output dist/pab cli.ts";
 * assert.deepEqual(compileArgs(task, { target: "x86_64-apple-darwin", file: "pab-macos-x64" }, "/out"), [
 *   "compile", "--unstable-kv", "--allow-read", "--target", "x86_64-apple-darwin", "--output", "/out/pab-macos-x64", "cli.ts",
 * ]);
 * ```
 */
export function compileArgs(compileTask: string, target: CompileTarget, outDir: string): string[] {
  const words = compileTask.trim().split(/\s+/);
  const output = words.indexOf("--output");
  if (words[0] !== "deno" || words[1] !== "compile" || output < 0 || words.at(-1) !== "cli.ts") {
    throw new Error(
      `Cannot read the compile task "${compileTask}": expected "deno compile FLAGS --output PATH cli.ts"`,
    );
  }
  return [
    "compile",
    ...words.slice(2, output),
    "--target",
    target.target,
    "--output",
    join(outDir, target.file),
    "cli.ts",
  ];
}

/**
 * Whether `deno compile` failed because it could not download its runtime.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cannotDownloadRuntime } from "./release.ts";
 * assert.ok(cannotDownloadRuntime("error sending request for url (https://dl.deno.land/release/v2.9.6/denort-x86_64-apple-darwin.zip): dns error"));
 * assert.ok(!cannotDownloadRuntime("error: Module not found"));
 * ```
 */
export function cannotDownloadRuntime(stderr: string): boolean {
  return /denort-[\w-]+\.zip/.test(stderr) &&
    /error (sending request|trying to connect)|dns error|timed out/i.test(stderr);
}

/**
 * The `SHA256SUMS` text for files (name and bytes): `sha256sum`'s format,
 * sorted by name, so `sha256sum -c SHA256SUMS` checks them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256Sums } from "./release.ts";
 * const text = await sha256Sums([{ name: "b", bytes: new Uint8Array() }, { name: "a", bytes: new TextEncoder().encode("abc") }]);
 * assert.equal(text, [
 *   "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a",
 *   "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  b",
 *   "",
 * ].join("\n"));
 * ```
 */
export async function sha256Sums(
  files: readonly { readonly name: string; readonly bytes: Uint8Array }[],
): Promise<string> {
  const lines: string[] = [];
  for (const file of [...files].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", file.bytes as Uint8Array<ArrayBuffer>));
    lines.push(`${[...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("")}  ${file.name}\n`);
  }
  return lines.join("");
}

/**
 * Check a release tag against `deno.json`'s version: `v0.1.0` for `0.1.0`.
 * Throws an `Error` saying what to change when they differ.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkTag } from "./release.ts";
 * checkTag("v0.1.0", "0.1.0");
 * assert.throws(() => checkTag("v0.2.0", "0.1.0"), /tag "v0.2.0" does not match deno.json's version "0.1.0"/);
 * ```
 */
export function checkTag(tag: string, version: string): void {
  if (tag !== `v${version}`) {
    throw new Error(
      `Cannot release: the tag "${tag}" does not match deno.json's version "${version}"; tag v${version}, or change the version`,
    );
  }
}

/** What {@linkcode makeRelease} made. */
export interface ReleaseReport {
  /** The release files, by name, sorted (`SHA256SUMS` included). */
  readonly files: readonly string[];
  /** Whether the five binaries were built. */
  readonly binaries: boolean;
  /** Why they were not, when they were not. */
  readonly skipped?: string;
  /** The release notes file. */
  readonly notes: string;
}

async function output(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const result = await new Deno.Command(command, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: result.code, stdout: decode(result.stdout), stderr: decode(result.stderr) };
}

/**
 * Make the release files in `outDir` (emptied first) and the notes beside
 * it (`OUTDIR-notes.md`). Throws an `Error` when a step fails, or when the
 * binaries cannot be built and `requireBinaries` is set.
 *
 * @example
 * ```ts ignore
 * import assert from "node:assert/strict";
 * import { makeRelease } from "./release.ts";
 * const report = await makeRelease("/tmp/pab-release", { tag: "v0.1.0" });
 * assert.ok(report.files.includes("SHA256SUMS"));
 * ```
 */
export async function makeRelease(
  outDir: string,
  options: { readonly tag?: string; readonly requireBinaries?: boolean; readonly log?: (line: string) => void } = {},
): Promise<ReleaseReport> {
  const log = options.log ?? (() => {});
  const config = await packageConfig();
  if (options.tag !== undefined) checkTag(options.tag, config.version);
  const notes = changelogSection(await Deno.readTextFile(join(REPO_ROOT, CHANGELOG)), config.version);
  await Deno.remove(outDir, { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  await Deno.mkdir(outDir, { recursive: true });
  const notesPath = `${outDir.replace(/\/$/, "")}-notes.md`;
  await Deno.writeTextFile(notesPath, `${notes}\n`);

  const deno = JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "deno.json")));
  let skipped: string | undefined;
  for (const target of COMPILE_TARGETS) {
    const compiled = await output(Deno.execPath(), compileArgs(deno.tasks.compile, target, outDir), REPO_ROOT);
    if (compiled.code === 0) {
      log(`binary: ${target.file} (${target.target})`);
      continue;
    }
    if (!cannotDownloadRuntime(compiled.stderr)) {
      throw new Error(
        `Cannot compile pab for ${target.target}: deno compile exited with ${compiled.code}: ${compiled.stderr}`,
      );
    }
    skipped = "deno compile cannot run here: it downloads its runtime (denort) from dl.deno.land, which this machine " +
      "cannot reach; the five binaries are skipped (the release workflow builds them on GitHub's runners)";
    if (options.requireBinaries) throw new Error(`Cannot release: ${skipped}`);
    log(skipped);
    for (const { file } of COMPILE_TARGETS) await Deno.remove(join(outDir, file)).catch(() => {});
    break;
  }

  const work = await Deno.makeTempDir({ prefix: "pab-release-" });
  try {
    const built = await buildNpmPackage(join(work, "npm"));
    const packed = await output("npm", ["pack", "--json", "--pack-destination", outDir], built.dir);
    if (packed.code !== 0) {
      throw new Error(`Cannot pack the npm package: npm pack exited with ${packed.code}: ${packed.stderr}`);
    }
    log(`npm package: ${JSON.parse(packed.stdout)[0].filename}`);
  } finally {
    await Deno.remove(work, { recursive: true });
  }

  const files: { name: string; bytes: Uint8Array }[] = [];
  for await (const entry of Deno.readDir(outDir)) {
    if (entry.isFile) files.push({ name: entry.name, bytes: await Deno.readFile(join(outDir, entry.name)) });
  }
  await Deno.writeTextFile(join(outDir, "SHA256SUMS"), await sha256Sums(files));
  const names = [...files.map((file) => file.name), "SHA256SUMS"].sort();
  return { files: names, binaries: skipped === undefined, notes: notesPath, ...(skipped ? { skipped } : {}) };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { out: { type: "string" }, tag: { type: "string" }, "require-binaries": { type: "boolean" } },
  });
  const outDir = values.out ?? join(REPO_ROOT, RELEASE_DIR);
  try {
    const report = await makeRelease(outDir, {
      tag: values.tag,
      requireBinaries: values["require-binaries"],
      log: (line) => console.error(line),
    });
    for (const file of report.files) console.log(join(outDir, file));
    console.error(`notes: ${report.notes}`);
  } catch (error) {
    console.error(errorText(error));
    Deno.exit(1);
  }
}
