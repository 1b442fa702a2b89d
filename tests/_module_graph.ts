/**
 * Module graphs as Deno sees them (`deno info --json`), for tests that check
 * what a command loads and what `deno run` resolves before it starts.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

interface InfoModule {
  readonly specifier: string;
  readonly dependencies?: readonly {
    readonly specifier: string;
    readonly isDynamic?: boolean;
    readonly code?: { readonly specifier: string };
    readonly type?: { readonly specifier: string };
  }[];
}

/** The graph of `entry` (relative to the repository) with types, under `lock` (adapters/mcp/deno.lock pins every runtime package). */
export async function moduleGraph(entry: string, lock = "adapters/mcp/deno.lock"): Promise<ModuleGraph> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", `--lock=${lock}`, entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  return new ModuleGraph(JSON.parse(new TextDecoder().decode(output.stdout)));
}

/** A graph from `deno info --json`. */
export class ModuleGraph {
  readonly #modules: Map<string, InfoModule>;
  readonly #redirects: Record<string, string>;
  readonly #root: string;

  constructor(info: { roots: string[]; modules: InfoModule[]; redirects?: Record<string, string> }) {
    this.#modules = new Map(info.modules.map((module) => [module.specifier, module]));
    this.#redirects = info.redirects ?? {};
    this.#root = info.roots[0];
  }

  /**
   * The modules that run, from the root: code imports only (no `import type`), static ones and, with `dynamic`,
   * literal `import()`s too (what `deno run` resolves, and checks against the lock, before it starts). Local modules
   * come back relative to the repository, npm modules as `npm:/name@version/path`.
   */
  code(dynamic: boolean): Set<string> {
    const seen = new Set<string>();
    const stack = [this.#root];
    while (stack.length) {
      let specifier = stack.pop()!;
      while (this.#redirects[specifier]) specifier = this.#redirects[specifier];
      if (seen.has(specifier)) continue;
      seen.add(specifier);
      for (const dependency of this.#modules.get(specifier)?.dependencies ?? []) {
        if (dependency.code && (dynamic || !dependency.isDynamic)) stack.push(dependency.code.specifier);
      }
    }
    const root = new URL("..", import.meta.url).href;
    return new Set([...seen].map((specifier) => specifier.startsWith(root) ? specifier.slice(root.length) : specifier));
  }

  /**
   * One cycle among the repository's modules, if any, as a path that returns to its start: every import counts,
   * type-only and dynamic ones too (a cycle of types still ties two files so that neither reads without the other).
   */
  cycle(): string[] | undefined {
    const root = new URL("..", import.meta.url).href;
    const local = (specifier: string) => specifier.startsWith(root) && !specifier.includes("/node_modules/");
    const state = new Map<string, "open" | "done">();
    const path: string[] = [];
    const visit = (specifier: string): string[] | undefined => {
      while (this.#redirects[specifier]) specifier = this.#redirects[specifier];
      if (state.get(specifier) === "done") return undefined;
      if (state.get(specifier) === "open") return [...path.slice(path.indexOf(specifier)), specifier];
      state.set(specifier, "open");
      path.push(specifier);
      for (const dependency of this.#modules.get(specifier)?.dependencies ?? []) {
        for (const next of [dependency.code?.specifier, dependency.type?.specifier]) {
          const cycle = next && local(next) ? visit(next) : undefined;
          if (cycle) return cycle.map((module) => module.startsWith(root) ? module.slice(root.length) : module);
        }
      }
      path.pop();
      state.set(specifier, "done");
      return undefined;
    };
    return visit(this.#root);
  }

  /** Every module, types included (what `deno check` reads). */
  all(): Set<string> {
    const root = new URL("..", import.meta.url).href;
    return new Set(
      [...this.#modules.keys()].map((specifier) =>
        specifier.startsWith(root) ? specifier.slice(root.length) : specifier
      ),
    );
  }
}

/** The npm package names among `modules` (`npm:/@noble/hashes@2.4.0/sha2.js` -> `@noble/hashes`). */
export function npmNames(modules: Iterable<string>): string[] {
  const names = new Set<string>();
  for (const specifier of modules) {
    const match = /^npm:\/?((?:@[^/]+\/)?[^/@]+)@/.exec(specifier);
    if (match) names.add(match[1]);
  }
  return [...names].sort();
}
