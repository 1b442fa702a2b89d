/**
 * The npm package's shape, from `deno.json` alone: its doors are the
 * published doors of `deno.json` `exports` (less `./cli`, a Deno program),
 * and its name, version and licence are `deno.json`'s, so the JSR package and
 * the npm package can never disagree.
 *
 * @module
 */

/** The `deno.json` keys the npm package is made from. */
export interface PackageConfig {
  /** `@pab/pab`. */
  readonly name: string;
  /** The one version of pab, for JSR, npm and the release tag. */
  readonly version: string;
  /** An SPDX licence name. */
  readonly license: string;
  /** Door (`.`, `./mcp`, ...) -> its module (`./mod.ts`, ...). */
  readonly exports: Readonly<Record<string, string>>;
}

/** One door of the npm package. */
export interface NpmDoor {
  /** The subpath users import: `.`, `./core`, `./ai-sdk`, ... */
  readonly subpath: string;
  /** The source module, relative to the repository root: `mod.ts`, `adapters/ai_sdk/mod.ts`, ... */
  readonly entry: string;
  /** The door's compiled module in the package: `./esm/mod.js`, ... */
  readonly module: string;
  /** The door's declarations in the package: `./types/index.d.ts`, `./types/ai-sdk.d.ts`, ... */
  readonly types: string;
}

/** Doors of `deno.json` that are programs to run under Deno, not modules for npm. */
const DENO_ONLY = new Set(["./cli"]);

/**
 * The MCP door loads the MCP SDK at run time (a peer dependency the user installs); the AI SDK and Agents JS
 * doors name their SDK's types only. Every other package pab uses is inlined in the package's own modules.
 */
export const PEER_DEPENDENCIES: Readonly<Record<string, string>> = Object.freeze({
  "@modelcontextprotocol/sdk": "^1.32.2",
  "@openai/agents": ">=0.20.0 <0.21.0",
  "ai": "^7.0.173",
});

/**
 * The npm package's doors: every `deno.json` door but the Deno-only ones, in
 * `deno.json`'s order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { npmDoors } from "./npm_manifest.ts";
 * const doors = npmDoors({ ".": "./mod.ts", "./ai-sdk": "./adapters/ai_sdk/mod.ts", "./cli": "./cli.ts" });
 * assert.deepEqual(doors.map((door) => [door.subpath, door.module, door.types]), [
 *   [".", "./esm/mod.js", "./types/index.d.ts"],
 *   ["./ai-sdk", "./esm/adapters/ai_sdk/mod.js", "./types/ai-sdk.d.ts"],
 * ]);
 * ```
 */
export function npmDoors(exports: Readonly<Record<string, string>>): NpmDoor[] {
  return Object.entries(exports).filter(([subpath]) => !DENO_ONLY.has(subpath)).map(([subpath, source]) => {
    const entry = source.replace(/^\.\//, "");
    return {
      subpath,
      entry,
      module: `./esm/${entry.replace(/\.ts$/, ".js")}`,
      types: `./types/${subpath === "." ? "index" : subpath.slice(2)}.d.ts`,
    };
  });
}

/**
 * The npm package's `package.json`: ES modules with declarations for each
 * door, no runtime dependencies of its own, the SDKs as optional peers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { npmDoors, npmManifest } from "./npm_manifest.ts";
 * const config = { name: "@pab/pab", version: "1.2.3", license: "MIT", exports: { ".": "./mod.ts" } };
 * const manifest = npmManifest(config, npmDoors(config.exports));
 * assert.equal(manifest.version, "1.2.3");
 * assert.deepEqual(manifest.exports, { ".": { types: "./types/index.d.ts", default: "./esm/mod.js" } });
 * assert.deepEqual(manifest.dependencies, {});
 * ```
 */
export function npmManifest(config: PackageConfig, doors: readonly NpmDoor[]): Record<string, unknown> {
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(config.version)) {
    throw new Error(`Cannot make package.json: deno.json's version "${config.version}" is not a semantic version`);
  }
  return {
    name: config.name,
    version: config.version,
    description: "A guard for LLM agents: argument provenance and information-flow control, with a way to yes",
    license: config.license,
    type: "module",
    sideEffects: false,
    exports: Object.fromEntries(doors.map((door) => [door.subpath, { types: door.types, default: door.module }])),
    files: ["esm/", "types/", "README.md", "CHANGELOG.md", "LICENSE"],
    engines: { node: ">=20" },
    dependencies: {},
    peerDependencies: { ...PEER_DEPENDENCIES },
    peerDependenciesMeta: Object.fromEntries(Object.keys(PEER_DEPENDENCIES).map((name) => [name, { optional: true }])),
  };
}
