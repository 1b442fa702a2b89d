/**
 * The npm package's type declarations: one `types/_pab.d.ts` that declares
 * every published name once, and one small `.d.ts` per door that re-exports
 * its names from it. One declaration per name keeps a class one type across
 * doors: a `Guard` from `@pab/pab` is the `Guard` `@pab/pab/ai-sdk` takes
 * (`Guard` has private fields, so two declarations of it would not mix).
 *
 * `deno bundle --declaration` type-checks what it declares; the SDKs' own
 * declarations do not check under one `lib` (the AI SDK's need the DOM's,
 * the Agents SDK's Node's), and pab's declarations need only their names.
 * So the SDK imports resolve, for this step only, to stand-ins that declare
 * those names as `any` ({@linkcode SDK_STAND_INS}), and the written
 * declarations import the real packages by their npm names.
 *
 * @module
 */
import { join, relative } from "node:path";
import { entrySymbols, type ExportedSymbol, publicDeclarations } from "./declarations.ts";
import type { NpmDoor } from "./npm_manifest.ts";

/** Each SDK module the doors import (as written in pab's source), its npm name, and the names pab takes from it. */
export const SDK_STAND_INS: readonly { readonly specifier: string; readonly npm: string; readonly stub: string }[] =
  Object.freeze([
    { specifier: "npm:ai@7.0.173", npm: "ai", stub: "export type ModelMessage = any;" },
    {
      specifier: "npm:@openai/agents@0.20.0",
      npm: "@openai/agents",
      stub:
        "export type FunctionTool<A = any, B = any, C = any> = any; export type RunContext<A = any> = any; export type ToolInputGuardrailDefinition<A = any> = any;",
    },
    ...[
      ["shared/transport.js", "export type Transport = any;"],
      ["types.js", "export type JSONRPCMessage = any;"],
      ["shared/stdio.js", "export declare const deserializeMessage: any; export declare const serializeMessage: any;"],
      ["server/stdio.js", "export declare const StdioServerTransport: any;"],
    ].map(([path, stub]) => ({
      specifier: `npm:@modelcontextprotocol/sdk@1.32.2/${path}`,
      npm: `@modelcontextprotocol/sdk/${path}`,
      stub,
    })),
  ]);

/** What {@linkcode writeNpmDeclarations} needs. */
export interface DeclarationsInput {
  /** The repository root. */
  readonly root: string;
  /** The package folder; declarations go to `types/` in it. */
  readonly outDir: string;
  /** A scratch folder, removed by the caller. */
  readonly workDir: string;
  /** The package's doors. */
  readonly doors: readonly NpmDoor[];
}

/**
 * Write `types/_pab.d.ts` and one `.d.ts` per door. Throws an `Error` when
 * `deno bundle` cannot declare the doors, or an SDK import is left without
 * an npm name.
 *
 * @example
 * ```ts ignore
 * import { writeNpmDeclarations } from "./npm_declarations.ts";
 * import { npmDoors } from "./npm_manifest.ts";
 * const doors = npmDoors({ ".": "./mod.ts", "./ai-sdk": "./adapters/ai_sdk/mod.ts" });
 * await writeNpmDeclarations({ root: "/repo", outDir: "/tmp/pab-npm", workDir: "/tmp/pab-work", doors });
 * ```
 */
export async function writeNpmDeclarations(input: DeclarationsInput): Promise<void> {
  const { root, outDir, workDir, doors } = input;
  const config = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
  const lock = join(root, "tests/deno.lock");
  const perDoor = new Map<NpmDoor, ExportedSymbol[]>();
  for (const door of doors) {
    perDoor.set(door, await entrySymbols(join(root, door.entry), join(root, "deno.json"), lock));
  }
  // One synthetic entry that re-exports every door's names; a name two doors share must be one binding.
  const lines: string[] = [];
  const seen = new Map<string, { readonly door: NpmDoor; readonly symbol: ExportedSymbol }>();
  for (const [door, symbols] of perDoor) {
    for (const symbol of symbols) {
      const first = seen.get(symbol.name);
      if (first && first.symbol.declaredAt !== symbol.declaredAt) {
        throw new Error(
          `Cannot declare the npm package's types: "${symbol.name}" is two things, in the "${first.door.subpath}" ` +
            `door (${first.symbol.declaredAt}) and the "${door.subpath}" door (${symbol.declaredAt}); rename one`,
        );
      }
    }
    const fresh = symbols.filter((symbol) => !seen.has(symbol.name));
    for (const symbol of fresh) seen.set(symbol.name, { door, symbol });
    if (!fresh.length) continue;
    const names = fresh.map((symbol) => symbol.typeOnly ? `type ${symbol.name}` : symbol.name).join(", ");
    // A relative specifier: deno bundle declares only what it reaches by relative imports.
    lines.push(`export { ${names} } from ${JSON.stringify(relative(workDir, join(root, door.entry)))};`);
  }
  const stubs = join(workDir, "stubs");
  await Deno.mkdir(stubs, { recursive: true });
  const imports: Record<string, string> = { ...config.imports };
  for (const [index, standIn] of SDK_STAND_INS.entries()) {
    const file = join(stubs, `sdk_${index}.ts`);
    await Deno.writeTextFile(file, `// deno-lint-ignore-file\n${standIn.stub}\n`);
    imports[standIn.specifier] = file;
  }
  const entry = join(workDir, "all_doors.ts");
  await Deno.writeTextFile(entry, lines.join("\n") + "\n");
  const configPath = join(workDir, "deno.json");
  await Deno.writeTextFile(
    configPath,
    JSON.stringify({ imports, compilerOptions: { noImplicitAny: false }, unstable: ["kv"] }),
  );
  const output = join(workDir, "all_doors.js");
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", "--declaration", "--config", configPath, "--no-lock", "--output", output, entry],
    cwd: root,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    throw new Error(
      `Cannot declare the npm package's types: deno bundle exited with ${code} (an SDK import with no stand-in in ` +
        `adapters/build/npm_declarations.ts?): ${new TextDecoder().decode(stderr)}`,
    );
  }
  const raw = await Deno.readTextFile(output.replace(/\.js$/, ".d.ts"));
  await Deno.mkdir(join(outDir, "types"), { recursive: true });
  await Deno.writeTextFile(
    join(outDir, "types", "_pab.d.ts"),
    npmTypeImports(publicDeclarations(raw, [...seen.keys()])),
  );
  for (const [door, symbols] of perDoor) {
    const names = symbols.map((symbol) => symbol.typeOnly ? `type ${symbol.name}` : symbol.name).join(", ");
    await Deno.writeTextFile(
      join(outDir, door.types),
      `// The "${door.subpath}" door of @pab/pab.\nexport { ${names} } from "./_pab.js";\n`,
    );
  }
}

/**
 * Declarations with each SDK import renamed from pab's source specifier to
 * the npm package's name, and repeated imports written once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { npmTypeImports } from "./npm_declarations.ts";
 * const text = 'import type { Transport } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/transport.js";\n';
 * assert.equal(
 *   npmTypeImports(text + text + "declare const x: Transport;\n"),
 *   'import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";\ndeclare const x: Transport;\n',
 * );
 * ```
 */
export function npmTypeImports(declarations: string): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (let line of declarations.split("\n")) {
    for (const { specifier, npm } of SDK_STAND_INS) line = line.replaceAll(`"${specifier}"`, `"${npm}"`);
    if (/^import /.test(line)) {
      if (seen.has(line)) continue;
      seen.add(line);
    }
    lines.push(line);
  }
  const left = /"(npm|jsr|node):[^"]*"/.exec(lines.filter((line) => /^import /.test(line)).join("\n"));
  if (left) throw new Error(`Cannot write npm declarations: an import of ${left[0]} has no npm name`);
  return lines.join("\n");
}
