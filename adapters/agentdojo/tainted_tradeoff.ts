/**
 * `deno run --allow-read adapters/agentdojo/tainted_tradeoff.ts`: what
 * `on_tainted: pinned` trades against `on_tainted: confirm`, measured both
 * ways on the committed replay: the drafted policies as drafted (`pinned` on
 * tools that change state, `named` on those that destroy), with every
 * `pinned` turned into `confirm`, and into `named`; the
 * hand-written policies as written and with every `confirm` turned into
 * `pinned`. The files stay as they are: each variant is rewritten in memory.
 *
 * @module
 */
import { load } from "npm:js-yaml@5.5.0";
import { compilePolicy } from "../../guard/mod.ts";
import { benchSuite, type SuiteResult } from "./agentdojo_benchmark.ts";
import { provguardCounts, suiteCounts } from "./bench_counts.ts";
import {
  attackFolder,
  DEFAULT_ATTACK,
  draftedFolder,
  manifestSuites,
  readDraftedManifest,
  readManifest,
  readSuiteFiles,
} from "./read_suite_files.ts";

/**
 * A parsed policy with every `on_tainted: from` (in `default:` and in each
 * tool) replaced by `to`; the input is not changed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { swapTainted } from "./tainted_tradeoff.ts";
 * const raw = { version: 1, tools: { a: { on_tainted: "pinned" }, b: { on_tainted: "allow" } } };
 * assert.deepEqual(swapTainted(raw, "pinned", "confirm").tools, { a: { on_tainted: "confirm" }, b: { on_tainted: "allow" } });
 * assert.equal(raw.tools.a.on_tainted, "pinned");
 * ```
 */
export function swapTainted(
  raw: Readonly<Record<string, unknown>>,
  from: string,
  to: string,
): Record<string, unknown> & { tools: Record<string, Record<string, unknown>> } {
  const swap = (section: unknown) => {
    const copy = { ...(section as Record<string, unknown>) };
    if (copy.on_tainted === from) copy.on_tainted = to;
    return copy;
  };
  const tools: Record<string, Record<string, unknown>> = {};
  for (const [name, tool] of Object.entries((raw.tools ?? {}) as Record<string, unknown>)) {
    tools[name] = tool === null ? {} : swap(tool);
  }
  return { ...raw, ...(raw.default ? { default: swap(raw.default) } : {}), tools };
}

/** One variant's results per suite. */
export interface TradeoffRow {
  /** The variant. */
  readonly name: string;
  /** Per suite, in report order. */
  readonly results: readonly SuiteResult[];
}

/** Measure the five variants on every suite under `root`. */
export async function measureTaintedTradeoff(
  root: string,
  readText: (path: string) => Promise<string>,
): Promise<TradeoffRow[]> {
  const users = await readManifest(attackFolder(root, DEFAULT_ATTACK), readText);
  const drafted = await readDraftedManifest(draftedFolder(root), readText);
  const variants: [string, "hand" | "drafted", string, string][] = [
    ["drafted, as drafted", "drafted", "", ""],
    ["drafted, pinned -> confirm", "drafted", "pinned", "confirm"],
    ["drafted, pinned -> named", "drafted", "pinned", "named"],
    ["hand-written, as written", "hand", "", ""],
    ["hand-written, confirm -> pinned", "hand", "confirm", "pinned"],
  ];
  const rows: TradeoffRow[] = [];
  for (const [name, set, from, to] of variants) {
    const results: SuiteResult[] = [];
    for (const suite of manifestSuites(users)) {
      const files = await readSuiteFiles(
        root,
        suite,
        { users, attacks: users, ...(set === "drafted" ? { drafted } : {}) },
        readText,
      );
      const raw = load(files.policy.text) as Record<string, unknown>;
      const policy = compilePolicy(from ? swapTainted(raw, from, to) : raw, files.policy.source);
      results.push(await benchSuite(files, { policy }));
    }
    rows.push({ name, results });
  }
  return rows;
}

/**
 * A row of the README's table: per suite legitimate tasks blocked / attacks
 * stopped (both on ProvGuard's accounting) / attacks stopped with no human,
 * then the totals.
 */
export function formatTradeoffRow(row: TradeoffRow): string {
  let blocked = 0;
  let tasks = 0;
  let stopped = 0;
  let noHuman = 0;
  let pairs = 0;
  const cells = row.results.map((result) => {
    const counts = suiteCounts(result);
    const anchor = provguardCounts(counts);
    blocked += anchor.legitBlocked;
    tasks += anchor.userTasks;
    stopped += anchor.attacksStopped;
    noHuman += counts.attacksBlocked;
    pairs += anchor.pairs;
    return `${anchor.legitBlocked} / ${anchor.attacksStopped} / ${counts.attacksBlocked}`;
  });
  const share = Math.round((100 * noHuman) / pairs);
  return `| ${row.name} | ${cells.join(" | ")} | ${blocked} / ${tasks} | ${stopped} / ${pairs} | ` +
    `${noHuman} / ${pairs} (${share}%) |`;
}

if (import.meta.main) {
  for (const row of await measureTaintedTradeoff("traces/agentdojo", (path) => Deno.readTextFile(path))) {
    console.log(formatTradeoffRow(row));
  }
}
