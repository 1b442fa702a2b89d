/**
 * core/ and harvest/ are pure: Web APIs only, no Deno, no Node, no network,
 * no clock, no randomness. And mod.ts (what the browser bundle ships) pulls in
 * nothing from adapters/ or the CLI, and no Node or file-system module.
 * Folders are entered only through their doors (`mod.ts`), and no module
 * imports itself through a cycle.
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const PURE_FOLDERS = ["core", "harvest"] as const;
/** Which folder may import which: layers point one way, `core ← harvest`. */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = { core: ["core"], harvest: ["core", "harvest"] };
const ALLOWED_PACKAGES = /^npm:@noble\/hashes@\d+\.\d+\.\d+\/[\w.-]+$/;
const FORBIDDEN: readonly { readonly pattern: RegExp; readonly what: string }[] = [
  { pattern: /\bDeno\./, what: "Deno." },
  { pattern: /["'`]node:/, what: "node:" },
  { pattern: /\bfetch\s*\(/, what: "fetch(" },
  { pattern: /\bDate\b/, what: "Date" },
  { pattern: /\bMath\.random\b/, what: "Math.random" },
  { pattern: /\bperformance\.now\b/, what: "performance.now" },
  { pattern: /\bsetTimeout\b/, what: "setTimeout" },
  { pattern: /\bcrypto\.getRandomValues\b/, what: "crypto.getRandomValues" },
  { pattern: /\bimport\s*\(/, what: "a dynamic import(" },
  { pattern: /(^|[^.\w$])require\s*\(/, what: "require(" },
];

/** Source text without comments (JSDoc examples and prose may name anything). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|\s)\/\/.*$/gm, "$1");
}

/** Every static import or re-export specifier in a module's source. */
function importSpecifiers(source: string): string[] {
  const code = withoutComments(source);
  const found = [
    ...code.matchAll(/\b(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']/g),
    ...code.matchAll(/\bimport\s*["']([^"']+)["']/g),
  ];
  return found.map((match) => match[1]);
}

/** The specifiers a module imports for their values (`import type` and `export type` are erased, so cannot cycle). */
function valueImportSpecifiers(source: string): string[] {
  return importSpecifiers(
    withoutComments(source).replace(/\b(?:import|export)\s+type\s[^;]*?\bfrom\s*["'][^"']+["']/g, ""),
  );
}

/** What is wrong with the pure module `file` (a path relative to the repository) whose text is `source`. */
function impurities(file: string, source: string): string[] {
  const folder = file.split("/")[0];
  const problems: string[] = [];
  for (const specifier of importSpecifiers(source)) {
    if (specifier.startsWith(".")) {
      const target = relative(ROOT, join(ROOT, dirname(file), specifier)).split("/")[0];
      if (!MAY_IMPORT[folder]?.includes(target)) problems.push(`${file} imports "${specifier}" from ${target}/`);
    } else if (!ALLOWED_PACKAGES.test(specifier)) {
      problems.push(`${file} imports "${specifier}"`);
    }
  }
  const code = withoutComments(source);
  for (const { pattern, what } of FORBIDDEN) {
    if (pattern.test(code)) problems.push(`${file} uses ${what}`);
  }
  return problems;
}

async function pureModules(): Promise<string[]> {
  const files: string[] = [];
  for (const folder of PURE_FOLDERS) {
    for await (const entry of Deno.readDir(join(ROOT, folder))) {
      if (entry.isFile && entry.name.endsWith(".ts") && !/[._]test\.ts$/.test(entry.name)) {
        files.push(`${folder}/${entry.name}`);
      }
    }
  }
  return files.sort();
}

async function deno(args: string[], cwd = ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(Deno.execPath(), { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder();
  return { code: output.code, stdout: text.decode(output.stdout), stderr: text.decode(output.stderr) };
}

Deno.test("impurities() reports forbidden imports and globals", () => {
  assert.deepEqual(
    impurities(
      "harvest/x.ts",
      [
        'import { a } from "../guard/guard.ts";',
        'import { b } from "../core/label.ts";',
        'import { sha256 } from "npm:@noble/hashes@2.4.0/sha2.js";',
        'import { bytesToHex } from "@noble/hashes/utils.js";',
        'export { c } from "zod";',
        'import "node:fs";',
        "/** Date and Deno.env in a comment are fine. */",
        "const now = Date.now(); // Math.random here is fine too",
        "setTimeout(() => fetch(url), 1);",
      ].join("\n"),
    ),
    [
      'harvest/x.ts imports "../guard/guard.ts" from guard/',
      'harvest/x.ts imports "@noble/hashes/utils.js"',
      'harvest/x.ts imports "zod"',
      'harvest/x.ts imports "node:fs"',
      "harvest/x.ts uses node:",
      "harvest/x.ts uses fetch(",
      "harvest/x.ts uses Date",
      "harvest/x.ts uses setTimeout",
    ],
  );
  assert.deepEqual(impurities("core/x.ts", 'import { y } from "../harvest/normalize.ts";'), [
    'core/x.ts imports "../harvest/normalize.ts" from harvest/',
  ]);
});

Deno.test("core/ and harvest/ import only each other (one way) and @noble/hashes, and touch no clock, randomness, network or runtime", async () => {
  const files = await pureModules();
  assert.ok(files.includes("core/mod.ts") && files.includes("harvest/mod.ts"), files.join(", "));
  const problems: string[] = [];
  for (const file of files) problems.push(...impurities(file, await Deno.readTextFile(join(ROOT, file))));
  assert.deepEqual(problems, []);
});

Deno.test({
  name: "core/ and harvest/ type-check with lib esnext+dom and no Deno types, and a Deno call does not",
  async fn() {
    const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "pab-purity-" });
    try {
      const repoConfig = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
      const config = join(dir, "deno.json");
      await Deno.writeTextFile(
        config,
        JSON.stringify({ compilerOptions: { lib: ["esnext", "dom"] }, imports: repoConfig.imports, lock: false }),
      );
      const pure = await deno(["check", "--quiet", "--config", config, "core/mod.ts", "harvest/mod.ts"]);
      assert.equal(pure.code, 0, `core/ or harvest/ needs more than Web APIs:\n${pure.stderr}`);

      // The same check must reject code that needs Deno, or it proves nothing.
      const impure = join(dir, "uses_deno.ts");
      await Deno.writeTextFile(impure, 'export const home: string | undefined = Deno.env.get("HOME");\n');
      const rejected = await deno(["check", "--quiet", "--config", config, impure]);
      assert.notEqual(rejected.code, 0, "a file using Deno.env type-checked under lib esnext+dom");
      assert.match(rejected.stderr, /Cannot find name 'Deno'/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("mod.ts imports nothing from adapters/, the CLI, Node or the file system", async () => {
  const info = await deno(["info", "--json", "mod.ts"]);
  assert.equal(info.code, 0, info.stderr);
  const graph: {
    modules: { specifier: string; error?: string }[];
    npmPackages: Record<string, { name: string; dependencies?: string[] }>;
  } = JSON.parse(info.stdout);
  const specifiers = graph.modules.map((module) => module.specifier);
  assert.ok(specifiers.includes(`file://${ROOT}/guard/guard.ts`), "deno info did not list the graph");
  assert.deepEqual(graph.modules.filter((module) => module.error), []);

  const local = specifiers.filter((specifier) => specifier.startsWith("file://"))
    .map((specifier) => relative(ROOT, fileURLToPath(specifier)));
  const outside = local.filter((path) =>
    path !== "mod.ts" && !/^(core|harvest|guard)\/([a-z_]+\/)*[^/]+\.ts$/.test(path)
  );
  assert.deepEqual(outside, [], "mod.ts reaches beyond core/, harvest/ and guard/");
  assert.ok(!local.some((path) => path.startsWith("adapters/") || path.startsWith("cli")));

  const other = specifiers.filter((specifier) => !specifier.startsWith("file://") && !specifier.startsWith("npm:"));
  assert.deepEqual(other, [], "mod.ts imports node: or remote modules");

  // The npm packages mod.ts pulls in, with their dependencies: each is bundled into the browser build.
  const packages = new Set<string>();
  const visit = (id: string) => {
    const entry = graph.npmPackages[id];
    if (!entry || packages.has(entry.name)) return;
    packages.add(entry.name);
    for (const dependency of entry.dependencies ?? []) visit(dependency);
  };
  for (const specifier of specifiers.filter((specifier) => specifier.startsWith("npm:"))) {
    const id = /^npm:\/?((?:@[^/]+\/)?[^/@]+@[^/]+)/.exec(specifier)?.[1];
    assert.ok(id, `Cannot read npm specifier "${specifier}"`);
    visit(id);
  }
  assert.deepEqual([...packages].sort(), ["@noble/hashes", "argparse", "js-yaml", "jsonc-parser"]);
});

/** Directories that hold a `mod.ts` (a folder's door), relative to the repository; "" is the root. */
function doorsOf(files: readonly string[]): Set<string> {
  return new Set(files.filter((file) => file.endsWith("/mod.ts") || file === "mod.ts").map((file) => dirname(file)));
}

/** The folder a file belongs to: its nearest enclosing directory with a door ("." for the root). */
function folderOf(file: string, doors: ReadonlySet<string>): string {
  for (let dir = dirname(file); dir !== "."; dir = dirname(dir)) if (doors.has(dir)) return dir;
  return ".";
}

/** Imports of `file` that enter another folder other than through its `mod.ts`. */
function doorProblems(file: string, source: string, doors: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const own = folderOf(file, doors);
  for (const specifier of importSpecifiers(source)) {
    if (!specifier.startsWith(".")) continue;
    const target = relative(ROOT, join(ROOT, dirname(file), specifier));
    const folder = folderOf(target, doors);
    if (folder === own) continue;
    const door = folder === "." ? "mod.ts" : `${folder}/mod.ts`;
    if (target !== door && !(folder === "." && !target.includes("/"))) {
      problems.push(`${file} imports "${specifier}", an inner file of ${folder}/: import ${door} instead`);
    }
  }
  return problems;
}

/** One import cycle among local modules, if any (as a path that returns to its start). */
function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === "done") return undefined;
    if (state.get(node) === "open") return [...path.slice(path.indexOf(node)), node];
    state.set(node, "open");
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, "done");
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

/** Every TypeScript source of the library and its adapters (not tests, traces, builds or virtualenvs). */
async function sourceFiles(dir = ""): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(join(ROOT, dir))) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory && !/^(\.|tests$|traces$|dist$|node_modules$)/.test(entry.name)) {
      files.push(...await sourceFiles(path));
    } else if (entry.isFile && entry.name.endsWith(".ts") && !/[._]test\.ts$/.test(entry.name)) files.push(path);
  }
  return files.sort();
}

Deno.test("doorProblems() reports inner files and private files of another folder, not a folder's own files", () => {
  const doors = new Set(["core", "guard", "guard/policy", "adapters/trace", "adapters/cli"]);
  assert.deepEqual(
    doorProblems(
      "adapters/cli/demo/run.ts",
      [
        'import { Guard } from "../../../guard/guard.ts";',
        'import { closestWord } from "../../trace/_closest_word.ts";',
        'import { readTrace } from "../../trace/mod.ts";',
        'import { formatCall } from "../format_call.ts";',
        'import { parsePolicy } from "../../../mod.ts";',
      ].join("\n"),
      doors,
    ),
    [
      'adapters/cli/demo/run.ts imports "../../../guard/guard.ts", an inner file of guard/: import guard/mod.ts instead',
      'adapters/cli/demo/run.ts imports "../../trace/_closest_word.ts", an inner file of adapters/trace/: import adapters/trace/mod.ts instead',
    ],
  );
  assert.deepEqual(
    doorProblems("guard/judge.ts", 'import { compilePolicy } from "./policy/compile_policy.ts";', doors),
    [
      'guard/judge.ts imports "./policy/compile_policy.ts", an inner file of guard/policy/: import guard/policy/mod.ts instead',
    ],
  );
});

Deno.test("valueImportSpecifiers() skips type-only imports", () => {
  assert.deepEqual(
    valueImportSpecifiers(
      'import type { A } from "./a.ts";\nimport { b, type C } from "./b.ts";\nexport type { D } from "./d.ts";',
    ),
    ["./b.ts"],
  );
});

Deno.test("findCycle() finds a cycle and accepts a graph without one", () => {
  assert.deepEqual(findCycle(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]]])), ["a", "b", "c", "a"]);
  assert.equal(findCycle(new Map([["a", ["b", "c"]], ["b", ["c"]], ["c", []]])), undefined);
});

Deno.test("every folder is entered only through its mod.ts, and no module imports itself through a value cycle", async () => {
  const files = await sourceFiles();
  const doors = doorsOf(files);
  assert.ok(doors.has("guard/policy") && doors.has("adapters/trace"), [...doors].join(", "));
  const problems: string[] = [];
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = await Deno.readTextFile(join(ROOT, file));
    problems.push(...doorProblems(file, source, doors));
    graph.set(
      file,
      valueImportSpecifiers(source).filter((specifier) => specifier.startsWith("."))
        .map((specifier) => relative(ROOT, join(ROOT, dirname(file), specifier))),
    );
  }
  assert.deepEqual(problems, []);
  assert.equal(findCycle(graph)?.join(" -> "), undefined);
});

Deno.test("compilePolicy() and the guard reach no YAML or JSONC parser; only parse_policy.ts does", async () => {
  for (const entry of ["guard/policy/compile_policy.ts", "guard/guard.ts", "core/mod.ts", "harvest/mod.ts"]) {
    const info = await deno(["info", "--json", entry]);
    assert.equal(info.code, 0, info.stderr);
    const graph: { modules: { specifier: string }[] } = JSON.parse(info.stdout);
    const parsers = graph.modules.map((module) => module.specifier).filter((specifier) =>
      /js-yaml|jsonc-parser|parse_policy\.ts/.test(specifier)
    );
    assert.deepEqual(parsers, [], `${entry} pulls in a text parser`);
  }
});

Deno.test("the root mod.ts exports at most 35 names, none of them an internal of core/, harvest/ or guard/", async () => {
  const source = withoutComments(await Deno.readTextFile(join(ROOT, "mod.ts")));
  const names = [...source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)]
    .flatMap((match) => match[1].split(","))
    .map((name) => name.trim().replace(/^type\s+/, ""))
    .filter(Boolean);
  assert.ok(names.length <= 35, `${names.length} names: ${names.join(", ")}`);
  for (const internal of ["judge", "EvidenceIndex", "tokenize", "sha256Hex", "canonicalJson", "Branch", "RulingBook"]) {
    assert.ok(!names.includes(internal), `mod.ts exports ${internal}`);
  }
  assert.ok(names.includes("Guard") && names.includes("explainDecision") && names.includes("ToolCallDenied"));
});

Deno.test("no source file of the library, its adapters or the CLI is over 400 lines (one concept per file)", async () => {
  const long: string[] = [];
  for (const path of await sourceFiles()) {
    const lines = (await Deno.readTextFile(join(ROOT, path))).split("\n").length - 1;
    if (lines > 400) long.push(`${path}: ${lines} lines`);
  }
  assert.deepEqual(long, []);
});
