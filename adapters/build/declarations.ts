/**
 * Type declarations for a bundle, as one self-contained `.d.ts`.
 *
 * `deno bundle --declaration` concatenates the declarations of every module
 * it bundled: each keeps its own `export` keywords (so internal helpers such
 * as `makeDecision` look exported), imports between the original files stay
 * (`import { type PlannerApprover } from "./plan_recovery.ts"`), and each file
 * ends in `export {}`; the declarations of a module that no export reaches are
 * left out even when a private part of another refers to them. {@linkcode publicDeclarations} turns that into a module
 * that declares everything locally and exports exactly the entry's names,
 * which `deno doc --json` lists ({@linkcode entryExports}).
 *
 * @module
 */

/**
 * Rewrite concatenated declarations so the file exports exactly `names`. An
 * import between bundled files of a name no bundled file declares becomes an
 * opaque `type NAME = unknown`. Throws an `Error` when a name to export is not
 * declared.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { publicDeclarations } from "./declarations.ts";
 * const raw = [
 *   'import { type Inner } from "./inner.ts";',
 *   'import { type Hidden } from "./hidden.ts";',
 *   "export interface Inner { readonly x: number }",
 *   "export {};",
 *   "export declare function helper(): Inner;",
 *   "export declare function api(): Inner;",
 * ].join("\n");
 * const text = publicDeclarations(raw, ["api"]);
 * assert.match(text, /^declare function helper\(\): Inner;$/m);
 * assert.match(text, /^export \{ api \};$/m);
 * assert.match(text, /^type Hidden = unknown;$/m);
 * assert.doesNotMatch(text, /import|export \{\}/);
 * ```
 */
export function publicDeclarations(raw: string, names: readonly string[]): string {
  const imported = new Set<string>();
  const kept: string[] = [];
  for (const line of raw.split("\n")) {
    const importLine = /^import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"\.{1,2}\/[^"]+";\s*$/.exec(line);
    if (importLine) {
      for (const part of importLine[1].split(",")) {
        const name = part.trim().replace(/^type\s+/, "").split(/\s+as\s+/).pop();
        if (name) imported.add(name);
      }
      continue;
    }
    if (/^export\s*\{\s*\};?\s*$/.test(line)) continue;
    kept.push(
      line
        .replace(/^export declare /, "declare ")
        .replace(/^export (interface|type|abstract class|class|enum|function|const|let) /, "declare $1 ")
        .replace(/^declare (interface|type) /, "$1 "),
    );
  }
  let body = kept.join("\n");
  const declared = declaredNames(body);
  // deno bundle leaves out the declarations of modules no export reaches; a type such a module gave to a private
  // part of another (guard.ts's internal session) is declared opaque, and named so.
  const opaque = [...imported].filter((name) => !declared.has(name)).sort();
  for (const name of opaque) {
    body =
      `/** Internal to pab and not part of its API: its declaration is left out. */\ntype ${name} = unknown;\n${body}`;
  }
  const missing = names.filter((name) => !declared.has(name));
  if (missing.length) {
    throw new Error(`Cannot write type declarations: ${missing.map((name) => `"${name}"`).join(", ")} not declared`);
  }
  if (/^export /m.test(body)) {
    const line = /^export .*$/m.exec(body)?.[0] ?? "";
    throw new Error(`Cannot write type declarations: unexpected export "${line.slice(0, 80)}"`);
  }
  return `${body.trimEnd()}\nexport { ${[...names].sort().join(", ")} };\n`;
}

/**
 * The names of the top-level declarations in a `.d.ts` text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { declaredNames } from "./declarations.ts";
 * assert.deepEqual([...declaredNames("declare class Guard {\n}\ntype Outcome = string;")], ["Guard", "Outcome"]);
 * ```
 */
export function declaredNames(text: string): Set<string> {
  const names = new Set<string>();
  const pattern =
    /^(?:export )?(?:declare )?(?:abstract )?(?:interface|type|class|enum|function|const|let|var)\s+([A-Za-z_$][\w$]*)/gm;
  for (const match of text.matchAll(pattern)) names.add(match[1]);
  return names;
}

/** A name a module exports, and whether it is a type only (an interface or a type alias). */
export interface ExportedSymbol {
  /** The exported name. */
  readonly name: string;
  /** True for an interface or a type alias: a name with no value at run time. */
  readonly typeOnly: boolean;
  /** Where it is declared (`file:line`): two doors that export one name must point at one place. */
  readonly declaredAt: string;
}

/**
 * The names a module exports (values and types), as `deno doc --json` lists them.
 * A door that imports packages outside `deno.lock` (the adapters') is read
 * under the lock given as `lockPath` (frozen).
 *
 * @example
 * ```ts ignore
 * import assert from "node:assert/strict";
 * import { entryExports } from "./declarations.ts";
 * const names = await entryExports("/repo/adapters/build/core.ts", "/repo/deno.json");
 * assert.ok(names.includes("canonicalJson"));
 * ```
 */
export async function entryExports(entryPath: string, configPath: string, lockPath?: string): Promise<string[]> {
  return (await entrySymbols(entryPath, configPath, lockPath)).map((symbol) => symbol.name);
}

/**
 * The names a module exports, sorted, each with whether it is a type only.
 *
 * @example
 * ```ts ignore
 * import assert from "node:assert/strict";
 * import { entrySymbols } from "./declarations.ts";
 * const symbols = await entrySymbols("/repo/adapters/build/core.ts", "/repo/deno.json");
 * assert.equal(symbols.find((symbol) => symbol.name === "Decision")?.typeOnly, true);
 * ```
 */
export async function entrySymbols(
  entryPath: string,
  configPath: string,
  lockPath?: string,
): Promise<ExportedSymbol[]> {
  const lock = lockPath ? [`--lock=${lockPath}`, "--frozen"] : [];
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", "--config", configPath, ...lock, entryPath],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    throw new Error(
      `Cannot list the exports of "${entryPath}": deno doc exited with ${code}: ${new TextDecoder().decode(stderr)}`,
    );
  }
  const doc = JSON.parse(new TextDecoder().decode(stdout)) as {
    readonly nodes: Readonly<
      Record<string, {
        readonly symbols?: readonly {
          readonly name: string;
          readonly declarations?: readonly { kind?: string; location?: { filename: string; line: number } }[];
        }[];
      }>
    >;
  };
  const symbols = Object.values(doc.nodes).flatMap((node) => node.symbols ?? []).filter((symbol) => symbol.name);
  if (!symbols.length) throw new Error(`Cannot list the exports of "${entryPath}": deno doc found none`);
  const byName = new Map<string, ExportedSymbol>();
  for (const symbol of symbols) {
    const declarations = symbol.declarations ?? [];
    const kinds = declarations.map((declaration) => declaration.kind);
    const onlyTypes = kinds.length > 0 && kinds.every((kind) => kind === "interface" || kind === "typeAlias");
    const location = declarations[0]?.location;
    const declaredAt = location ? `${location.filename}:${location.line}` : "";
    const known = byName.get(symbol.name);
    byName.set(symbol.name, {
      name: symbol.name,
      typeOnly: (known?.typeOnly ?? true) && onlyTypes,
      declaredAt: known?.declaredAt || declaredAt,
    });
  }
  return [...byName.values()].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
