/**
 * The playground's examples: every trace in `traces/examples/` with every
 * example policy, as editor texts (the policy as written, the conversation as
 * a pab trace).
 *
 * @module
 */
import { formatTrace, readTrace } from "../trace/mod.ts";

/** One example: the texts the editors get. */
export interface PlaygroundExample {
  /** The policy's text. */
  readonly policy: string;
  /** The conversation, as a pab trace (JSONL). */
  readonly conversation: string;
}

/**
 * Read the examples from a folder: `*.policy.yaml` (or `.json`/`.jsonc`)
 * files are policies, other `.jsonl`/`.json` files are traces (pab traces or
 * OpenAI logs). Named `TRACE with POLICY`; a trace's own policy (its header's
 * `meta.policy`) comes first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadExamples } from "./load_examples.ts";
 * const examples = await loadExamples(new URL("../../traces/examples/", import.meta.url));
 * assert.ok(Object.hasOwn(examples, "hijack.openai.json with demo.policy.yaml"));
 * assert.match(examples["hijack.pab.jsonl with demo.policy.yaml"].conversation, /^\{"pab":"trace"/);
 * ```
 */
export async function loadExamples(folder: URL): Promise<Record<string, PlaygroundExample>> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(folder)) if (entry.isFile) names.push(entry.name);
  names.sort();
  const isPolicy = (name: string) => /\.policy\.(ya?ml|jsonc?)$/.test(name);
  const policies = names.filter(isPolicy);
  const traces = names.filter((name) => !isPolicy(name) && /\.jsonl?$/.test(name));
  const entries: [string, PlaygroundExample, boolean][] = [];
  for (const traceName of traces) {
    const trace = readTrace(await Deno.readTextFile(new URL(traceName, folder)), { source: traceName });
    const conversation = formatTrace(trace);
    const own = typeof trace.meta.policy === "string" ? trace.meta.policy.split("/").pop() : undefined;
    for (const policyName of policies) {
      const policy = await Deno.readTextFile(new URL(policyName, folder));
      entries.push([`${traceName} with ${policyName}`, { policy, conversation }, policyName === own]);
    }
  }
  entries.sort((a, b) => Number(b[2]) - Number(a[2]));
  return Object.fromEntries(entries.map(([name, example]) => [name, example]));
}
