/**
 * What a bundle's bytes are made of: every byte of the minified code is
 * charged to the source module its source map says it came from, and the
 * modules are grouped by npm package or repository folder.
 *
 * `deno bundle` runs esbuild but does not hand out esbuild's metafile; the
 * source map it writes (`--sourcemap external`) carries the same information
 * per output byte, so this reads that instead.
 *
 * @module
 */

/** Minified bytes charged to one source module or group. */
export interface SizeShare {
  /** A repository path (`guard/guard.ts`), an npm module (`npm:zod@4.6.7/v4/core/schemas.js`) or a group. */
  readonly name: string;
  /** UTF-8 bytes of minified output that came from it. */
  readonly bytes: number;
}

/** A bundle's bytes by module and by group, largest first. */
export interface SizeBreakdown {
  /** Every source module. */
  readonly modules: readonly SizeShare[];
  /** Modules grouped: `npm:NAME@VERSION` for packages, the top folder (`guard/`) for repository files. */
  readonly groups: readonly SizeShare[];
  /** Bytes no source claims (the bundle's own glue: export list, helpers). */
  readonly unmapped: number;
  /** All bytes of the code. */
  readonly total: number;
}

/** The fields of a version 3 source map this reads. */
export interface SourceMapV3 {
  /** Source paths, relative to the map's folder. */
  readonly sources: readonly string[];
  /** Base64 VLQ mappings. */
  readonly mappings: string;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const NPM_PATH = /\/registry\.npmjs\.org\/((?:@[^/]+\/)?[^/]+)\/([^/]+)\/(.*)$/;

/**
 * Charge every byte of `code` to the module its source map names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sizeBreakdown } from "./size_breakdown.ts";
 * // "var a=1;" comes from a.ts, "var b=2;" from b.ts (two segments on one line).
 * const breakdown = sizeBreakdown("var a=1;var b=2;", { sources: ["a.ts", "b.ts"], mappings: "AAAA,QCAA" }, "/repo");
 * assert.deepEqual(breakdown.modules, [{ name: "a.ts", bytes: 8 }, { name: "b.ts", bytes: 8 }]);
 * assert.equal(breakdown.unmapped, 0);
 * ```
 */
export function sizeBreakdown(code: string, map: SourceMapV3, repoRoot: string, mapFolder?: string): SizeBreakdown {
  const encoder = new TextEncoder();
  const bytesBySource = new Map<number, number>();
  let unmapped = 0;
  const lines = code.split("\n");
  const mappingLines = map.mappings.split(";");
  let source = 0;
  for (const [lineIndex, line] of lines.entries()) {
    const segments: { column: number; source: number | undefined }[] = [];
    let column = 0;
    for (const segment of (mappingLines[lineIndex] ?? "").split(",")) {
      if (!segment) continue;
      const fields = decodeVlq(segment);
      column += fields[0];
      if (fields.length >= 4) source += fields[1];
      segments.push({ column, source: fields.length >= 4 ? source : undefined });
      // Lines and columns of the source are not needed; only the source index is charged.
    }
    if (!segments.length || segments[0].column > 0) {
      unmapped += encoder.encode(line.slice(0, segments[0]?.column ?? line.length)).length;
    }
    for (const [i, segment] of segments.entries()) {
      const end = segments[i + 1]?.column ?? line.length;
      const bytes = encoder.encode(line.slice(segment.column, end)).length;
      if (segment.source === undefined) unmapped += bytes;
      else bytesBySource.set(segment.source, (bytesBySource.get(segment.source) ?? 0) + bytes);
    }
    if (lineIndex < lines.length - 1) unmapped += 1; // the newline
  }
  const modules = new Map<string, number>();
  for (const [index, bytes] of bytesBySource) {
    const name = moduleName(map.sources[index] ?? `(source ${index})`, repoRoot, mapFolder);
    modules.set(name, (modules.get(name) ?? 0) + bytes);
  }
  const groups = new Map<string, number>();
  for (const [name, bytes] of modules) groups.set(groupName(name), (groups.get(groupName(name)) ?? 0) + bytes);
  return {
    modules: sorted(modules),
    groups: sorted(groups),
    unmapped,
    total: encoder.encode(code).length,
  };
}

/**
 * A readable table of a breakdown: the groups, then the `top` largest modules.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatBreakdown } from "./size_breakdown.ts";
 * const text = formatBreakdown({ modules: [{ name: "guard/guard.ts", bytes: 30 }], groups: [{ name: "guard/", bytes: 30 }], unmapped: 10, total: 40 }, 5);
 * assert.match(text, /guard\/ +30 +75\.0%/);
 * ```
 */
export function formatBreakdown(breakdown: SizeBreakdown, top = 12): string {
  const row = (share: SizeShare) =>
    `  ${share.name.padEnd(48)} ${String(share.bytes).padStart(7)} ${
      (100 * share.bytes / breakdown.total).toFixed(1).padStart(5)
    }%`;
  return [
    "by package or folder (minified bytes):",
    ...breakdown.groups.map(row),
    row({ name: "(bundle glue)", bytes: breakdown.unmapped }),
    `largest modules:`,
    ...breakdown.modules.slice(0, top).map(row),
  ].join("\n");
}

function moduleName(source: string, repoRoot: string, mapFolder?: string): string {
  const npm = NPM_PATH.exec(source);
  if (npm) return `npm:${npm[1]}@${npm[2]}/${npm[3]}`;
  // Sources are relative to the map's folder; the repository's own files are named from its root, wherever the
  // repository and the map are (a clone under /tmp, a bundle written to a temporary folder).
  const root = repoRoot.endsWith("/") ? repoRoot : `${repoRoot}/`;
  const absolute = mapFolder === undefined || source.startsWith("/")
    ? source
    : decodeURIComponent(new URL(source, `file://${mapFolder.endsWith("/") ? mapFolder : `${mapFolder}/`}`).pathname);
  if (absolute.startsWith(root)) return absolute.slice(root.length);
  const rootAt = source.indexOf(root.slice(1));
  return rootAt >= 0 ? source.slice(rootAt + root.length - 1) : source.replace(/^(\.\.?\/)+/, "");
}

function groupName(module: string): string {
  if (module.startsWith("npm:")) return module.slice(0, module.indexOf("/", module.indexOf("@", 5)));
  const slash = module.indexOf("/");
  return slash >= 0 ? module.slice(0, slash + 1) : module;
}

function sorted(shares: Map<string, number>): SizeShare[] {
  return [...shares].map(([name, bytes]) => ({ name, bytes })).sort((a, b) =>
    b.bytes - a.bytes || a.name.localeCompare(b.name)
  );
}

function decodeVlq(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    if (digit < 0) throw new Error(`Cannot read source map: "${char}" is not a base64 digit in segment "${segment}"`);
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -Math.floor(value / 2) : Math.floor(value / 2));
    value = 0;
    shift = 0;
  }
  return values;
}
