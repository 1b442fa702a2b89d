/**
 * Build the browser bundle: `mod.ts` as one minified ES module with every
 * dependency inlined, at `dist/pab.min.js` (and `dist/pab.min.js.gz`).
 *
 * `deno task bundle` runs this file and prints the sizes the README quotes.
 * The tests call {@linkcode buildBundle} with the same flags to get a fresh
 * bundle in a temporary directory.
 *
 * The bundle is checked after it is written: it must import nothing and
 * mention nothing Deno-, Node- or file-system-specific, or the build fails.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** What {@linkcode buildBundle} wrote. */
export interface BundleReport {
  /** Path of the minified bundle. */
  readonly path: string;
  /** The bundle's source text. */
  readonly code: string;
  /** Size of the minified bundle in bytes. */
  readonly minifiedBytes: number;
  /** Size of the bundle gzipped (`CompressionStream("gzip")`) in bytes. */
  readonly gzippedBytes: number;
  /** The gzipped bundle. */
  readonly gzipped: Uint8Array;
}

/** The repository root: the folder that holds `deno.json` and `mod.ts`. */
export const REPO_ROOT: string = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** The exact `deno bundle` arguments, output path excepted. */
export const BUNDLE_ARGS: readonly string[] = Object.freeze([
  "bundle",
  "--quiet",
  "--minify",
  "--platform",
  "browser",
  "--format",
  "esm",
  "--config",
  join(REPO_ROOT, "deno.json"),
]);

/** Things a browser bundle must not contain, with why. */
const FORBIDDEN: readonly { readonly pattern: RegExp; readonly what: string }[] = [
  { pattern: /\bDeno\b/, what: "the Deno namespace" },
  { pattern: /["'`]node:/, what: "a node: module" },
  { pattern: /(^|[^.\w$])require\(/, what: "a CommonJS require()" },
  { pattern: /\bprocess\.(env|cwd|argv|versions)\b/, what: "Node's process object" },
  { pattern: /\b__dirname\b|\b__filename\b/, what: "a CommonJS path global" },
  { pattern: /\bimport\s*\(/, what: "a dynamic import" },
  { pattern: /\bimport\.meta\b/, what: "import.meta" },
  { pattern: /(^|[;}])\s*import\s*[{*\w"']/, what: "a static import (the bundle must be self-contained)" },
  { pattern: /\bexport\s*(\*|\{[^}]*\})\s*from\s*["']/, what: "a re-export from another module" },
];

/**
 * Bundle `mod.ts` into one minified ES module at `output`, check it, and
 * measure it. Throws an `Error` when `deno bundle` fails or the bundle
 * contains something a browser cannot run.
 *
 * @example
 * ```ts ignore
 * import { buildBundle } from "./bundle.ts";
 * const report = await buildBundle("/tmp/pab.min.js");
 * console.log(report.minifiedBytes, report.gzippedBytes);
 * ```
 */
export async function buildBundle(output: string): Promise<BundleReport> {
  const { code: exitCode, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [...BUNDLE_ARGS, "--output", output, join(REPO_ROOT, "mod.ts")],
    cwd: REPO_ROOT,
    stdout: "inherit",
    stderr: "piped",
  }).output();
  if (exitCode !== 0) {
    throw new Error(`Cannot bundle "mod.ts": deno bundle exited with ${exitCode}: ${new TextDecoder().decode(stderr)}`);
  }
  const bytes = await Deno.readFile(output);
  const code = new TextDecoder().decode(bytes);
  const problems = bundleProblems(code);
  if (problems.length) throw new Error(`Cannot ship "${output}": it contains ${problems.join("; ")}`);
  const gzipped = await gzip(bytes);
  return { path: output, code, minifiedBytes: bytes.length, gzippedBytes: gzipped.length, gzipped };
}

/**
 * What in a bundle's code a browser or an edge runtime could not run: each
 * problem names the construct and quotes the code around it. Empty when the
 * bundle is clean.
 *
 * @example
 * ```ts
 * import { bundleProblems } from "./bundle.ts";
 * console.log(bundleProblems("export const a = 1;")); // []
 * console.log(bundleProblems("Deno.readFileSync(p)").length); // 1
 * ```
 */
export function bundleProblems(code: string): string[] {
  const problems: string[] = [];
  for (const { pattern, what } of FORBIDDEN) {
    const found = pattern.exec(code);
    if (found) problems.push(`${what} near "${code.slice(Math.max(0, found.index - 40), found.index + 40)}"`);
  }
  return problems;
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

if (import.meta.main) {
  const dist = join(REPO_ROOT, "dist");
  await Deno.mkdir(dist, { recursive: true });
  const report = await buildBundle(join(dist, "pab.min.js"));
  await Deno.writeFile(`${report.path}.gz`, report.gzipped);
  console.log(`dist/pab.min.js     ${report.minifiedBytes} bytes (minified)`);
  console.log(`dist/pab.min.js.gz  ${report.gzippedBytes} bytes (gzip)`);
}
