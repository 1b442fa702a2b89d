/**
 * The unseen-domain check set: four domains AgentDojo does not have (devops, customer support, personal finance, a
 * browser agent), each a tool list and a few traces in traces/examples/unseen/, replayed against the policy
 * `pab generate` drafts from the tool list, unedited.
 *
 *   deno run --allow-read tests/_unseen_domains.ts
 *
 * Prints one line per trace and the totals: legitimate tasks that run with no question, that reach a question (a way
 * to yes), that have no route; benign look-alikes (the user states a value a stranger's text also holds) that run
 * with no question; attacks blocked with no human, held for the user, through.
 *
 * @module
 */
import { attackOutcome, legitOutcome, replayLive } from "../adapters/agentdojo/mod.ts";
import { draftPolicy } from "../adapters/cli/draft/draft_policy.ts";
import { readToolDefinitions } from "../adapters/cli/draft/tool_definitions.ts";
import { readPabTrace } from "../adapters/trace/mod.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";

export const UNSEEN_DOMAINS = ["devops", "support", "finance", "browser"] as const;
const ROOT = new URL("../traces/examples/unseen/", import.meta.url);

/** One replayed trace of the check set. */
export interface UnseenResult {
  readonly domain: string;
  readonly trace: string;
  /** `legit`, `lookalike` or `attack`, from the trace's meta. */
  readonly kind: string;
  /** What the trace's meta expects: `no-question`, `way-to-yes` or `stopped`. */
  readonly expect: string;
  /** Legitimate: `allowed`, `user`, `approver` or `blocked` (no route); attack: `blocked`, `held` or `through`. */
  readonly outcome: string;
  /** Why, for anything but an outright allow: the first call not allowed, with its gaps. */
  readonly why?: string;
}

/** Replay every trace of the check set against its domain's drafted policy. */
export async function measureUnseen(): Promise<UnseenResult[]> {
  const results: UnseenResult[] = [];
  for (const domain of UNSEEN_DOMAINS) {
    const source = `traces/examples/unseen/${domain}.tools.json`;
    const { tools } = readToolDefinitions(
      JSON.parse(await Deno.readTextFile(new URL(`${domain}.tools.json`, ROOT))),
      source,
    );
    const policy = parsePolicy(draftPolicy(tools, source), { source: `${domain}.drafted.yaml` });
    const names: string[] = [];
    for await (const entry of Deno.readDir(new URL(`${domain}/`, ROOT))) {
      if (entry.name.endsWith(".jsonl")) names.push(entry.name);
    }
    for (const name of names.sort()) {
      const text = await Deno.readTextFile(new URL(`${domain}/${name}`, ROOT));
      const trace = readPabTrace(text, { source: name });
      const calls = await replayLive(trace, policy);
      const kind = String(trace.meta.kind);
      const outcome = kind === "attack" ? attackOutcome(name, true, calls).outcome : legitOutcome(name, calls).outcome;
      const first = calls.find((call) => call.verdict !== "allow" && (kind !== "attack" || call.actor === "attacker"));
      const why = first
        ? `${first.tool}: ${first.verdict}: ${
          first.gaps.map((gap) =>
            `${gap.code}/${gap.severity}${gap.delegation ? `/${gap.delegation}` : ""} ${gap.argument ?? ""}`
          ).join(", ")
        }`
        : undefined;
      results.push({
        domain,
        trace: name.replace(/\.jsonl$/, ""),
        kind,
        expect: String(trace.meta.expect),
        outcome,
        ...(why ? { why } : {}),
      });
    }
  }
  return results;
}

/** The totals line the README quotes. */
export function unseenSummary(results: readonly UnseenResult[]): string {
  const legit = results.filter((r) => r.kind === "legit");
  const look = results.filter((r) => r.kind === "lookalike");
  const attacks = results.filter((r) => r.kind === "attack");
  const count = (list: readonly UnseenResult[], outcome: string) => list.filter((r) => r.outcome === outcome).length;
  return `legitimate: ${count(legit, "allowed")} with no question, ${
    count(legit, "user") + count(legit, "approver")
  } asked, ` +
    `${count(legit, "blocked")} with no route (of ${legit.length}); look-alikes: ${count(look, "allowed")} with no ` +
    `question (of ${look.length}); attacks: ${count(attacks, "blocked")} blocked with no human, ` +
    `${count(attacks, "held")} held for the user, ${count(attacks, "through")} through (of ${attacks.length})`;
}

if (import.meta.main) {
  const results = await measureUnseen();
  for (const r of results) {
    console.log(
      `${r.domain.padEnd(8)} ${r.kind.padEnd(9)} ${r.trace.padEnd(32)} ${r.outcome.padEnd(8)} ${r.why ?? ""}`,
    );
  }
  console.log(unseenSummary(results));
}
