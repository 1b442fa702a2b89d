/**
 * The drafted AgentDojo policies: `pab generate` run, unedited, on each suite's
 * `suite.json`, and their manifest of sha256. `deno task draft-agentdojo`
 * writes them to `traces/agentdojo/drafted/`; `--check` only compares, so a
 * generator change that moves a draft is seen (the bench refuses a draft that
 * differs from the manifest).
 *
 * @module
 */
import { AGENTDOJO_SUITES, AGENTDOJO_VERSION, draftedFolder } from "../../agentdojo/mod.ts";
import { sha256Hex } from "../../../core/mod.ts";
import { draftPolicy } from "./draft_policy.ts";
import { readToolDefinitions } from "./tool_definitions.ts";
import { parseJson } from "../../json/mod.ts";

/**
 * The drafts and their manifest, by file name under the drafted folder, from
 * each suite's `suite.json` text (read by the caller).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { draftAgentdojoPolicies } from "./draft_agentdojo.ts";
 * const suite = '{"agentdojo":"0.1.35","suite":"banking","tools":[{"name":"get_balance","parameters":{}}]}';
 * const files = draftAgentdojoPolicies("traces/agentdojo", { banking: suite });
 * assert.match(files["banking.yaml"], /get_balance:/);
 * assert.match(files["manifest.json"], /"banking": "[0-9a-f]{64}"/);
 * ```
 */
export function draftAgentdojoPolicies(
  root: string,
  suites: Readonly<Record<string, string>>,
): Record<string, string> {
  const files: Record<string, string> = {};
  const policies: Record<string, string> = {};
  for (const suite of AGENTDOJO_SUITES) {
    if (!Object.hasOwn(suites, suite)) continue;
    const source = suitePath(root, suite);
    const { tools } = readToolDefinitions(parseJson(suites[suite]), source);
    const text = draftPolicy(tools, source);
    files[`${suite}.yaml`] = text;
    policies[suite] = sha256Hex(text);
  }
  const manifest = {
    schemaVersion: 1,
    command: "deno task draft-agentdojo",
    policies,
  };
  files["manifest.json"] = `${JSON.stringify(manifest, null, 2)}\n`;
  return files;
}

/** Where a suite's tool definitions are. */
export function suitePath(root: string, suite: string): string {
  return `${root}/${AGENTDOJO_VERSION}/${suite}/suite.json`;
}

async function main(args: readonly string[]): Promise<number> {
  const check = args.includes("--check");
  const root = "traces/agentdojo";
  const suites: Record<string, string> = {};
  for (const suite of AGENTDOJO_SUITES) suites[suite] = await Deno.readTextFile(suitePath(root, suite));
  const folder = draftedFolder(root);
  let differ = 0;
  for (const [name, text] of Object.entries(draftAgentdojoPolicies(root, suites))) {
    const path = `${folder}/${name}`;
    const old = await Deno.readTextFile(path).catch(() => undefined);
    if (old === text) continue;
    differ++;
    if (check) console.error(`${path} differs from what pab generate drafts now`);
    else {
      await Deno.mkdir(folder, { recursive: true });
      await Deno.writeTextFile(path, text);
      console.error(`wrote ${path}`);
    }
  }
  return check && differ ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
