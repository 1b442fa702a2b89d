/**
 * The playground's page logic. {@linkcode replayConversation} runs a policy and
 * a conversation through a fresh guard, with the rulings the user applied, and
 * describes every call and the label over time; {@linkcode startPlayground}
 * wires it to the page.
 *
 * Both are shipped to the browser as source text (with the pictures of
 * `adapters/html/`), so they refer to nothing but their arguments, the
 * pictures' functions by name, and each other.
 *
 * @module
 */
import {
  type CallView,
  escapeHtml,
  outcomeSummary,
  renderCall,
  renderTimeline,
  type TimelineStep,
} from "../html/mod.ts";

/** A call as the playground shows it: its card, and whether a ruling can lead to yes. */
export interface PlaygroundCall extends CallView {
  /** Whether the way to yes has rulings the user can apply (the user's own, or approvers'). */
  readonly canRule: boolean;
}

/** What the page shows after a run. */
export interface PlaygroundRun {
  /** Every call of the conversation, decided. */
  readonly calls: readonly PlaygroundCall[];
  /** The label after every event. */
  readonly timeline: readonly TimelineStep[];
  /** Why nothing could be decided (a bad policy or conversation), when so. */
  readonly error?: string;
}

/**
 * Decide every call of a conversation (a pab trace, one JSON event a line)
 * under a policy (YAML, or JSONC when it starts with `{`), as `pab check`
 * does, except for the calls whose ids are in `rulings`: for those, every
 * ruling of the way to yes is applied (the user confirms; each named
 * approver is asked through `guard.requestRuling`, and the playground's
 * stand-in approvers agree), and the call is proposed again with them.
 *
 * @example The hijack, then the user's ruling on the call to Alice
 * ```ts
 * import assert from "node:assert/strict";
 * import * as pab from "../../mod.ts";
 * import { replayConversation } from "./playground_app.ts";
 * const policy = "version: 1\ntools:\n  read_inbox: {output: untrusted, on_tainted: allow}\n  send_email: {on_tainted: confirm}\n";
 * const conversation = [
 *   '{"type":"user","content":"Mail alice@corp.example"}',
 *   '{"type":"call","id":"c1","tool":"read_inbox","args":{}}',
 *   '{"type":"result","id":"c1","content":"hello"}',
 *   '{"type":"call","id":"c2","tool":"send_email","args":{"to":"alice@corp.example"}}',
 * ].join("\n");
 * const before = await replayConversation(pab, policy, conversation, []);
 * assert.deepEqual(before.calls.map((call) => call.outcome), ["allow", "confirm"]);
 * const after = await replayConversation(pab, policy, conversation, ["c2"]);
 * assert.equal(after.calls[1].outcome, "allow");
 * assert.match(after.calls[1].status ?? "", /ran after the ruling/);
 * ```
 */
export async function replayConversation(
  // deno-lint-ignore no-explicit-any
  pab: any,
  policyText: string,
  conversationText: string,
  rulings: readonly string[],
): Promise<PlaygroundRun> {
  const calls: PlaygroundCall[] = [];
  const timeline: TimelineStep[] = [];
  const problem = (error: unknown) => {
    // deno-lint-ignore no-explicit-any
    const caught = error as any;
    return `${caught?.code ? `${caught.code}: ` : ""}${caught?.message ?? String(error)}`;
  };
  // deno-lint-ignore no-explicit-any
  let guard: any;
  // deno-lint-ignore no-explicit-any
  const events: any[] = [];
  try {
    const format = policyText.trimStart().startsWith("{") ? "jsonc" : "yaml";
    const policy = pab.parsePolicy(policyText, { source: `policy.${format === "jsonc" ? "json" : "yaml"}`, format });
    const approvers: Record<string, () => boolean> = {};
    for (const name of Object.keys(policy.approvers)) approvers[name] = () => true;
    const casts: Record<string, () => never> = {};
    for (const spec of Object.values(policy.casts) as { cast: string }[]) {
      casts[spec.cast] = () => {
        throw new Error("casts are code, and the playground cannot run them");
      };
    }
    guard = new pab.Guard(policy, { approvers, casts });
  } catch (error) {
    return { calls, timeline, error: problem(error) };
  }
  for (const [index, line] of conversationText.split("\n").entries()) {
    if (!line.trim()) continue;
    try {
      const event = JSON.parse(line);
      if (typeof event !== "object" || event === null || Array.isArray(event)) throw new Error("not a JSON object");
      if (event.pab === "trace") continue;
      if (!["system", "user", "assistant", "call", "result"].includes(event.type)) {
        throw new Error(
          `unknown event type ${JSON.stringify(event.type)} (use system, user, assistant, call or result)`,
        );
      }
      if (event.type === "call" && (typeof event.id !== "string" || typeof event.tool !== "string")) {
        throw new Error('a call needs an "id" and a "tool"');
      }
      events.push(event);
    } catch (error) {
      return { calls, timeline, error: `Cannot read the conversation: line ${index + 1}: ${problem(error)}` };
    }
  }
  const step = (event: string, outcome?: string) => {
    const label = guard.label;
    timeline.push({
      event,
      label: pab.formatPartialLabel(label),
      trust: label.known.trust,
      ...(outcome ? { outcome } : {}),
    });
  };
  // deno-lint-ignore no-explicit-any
  const results = new Map<string, any>();
  for (const event of events) if (event.type === "result") results.set(event.id, event);
  try {
    for (const event of events) {
      if (event.type === "system" || event.type === "user") {
        guard[event.type](String(event.content ?? ""));
        step(event.type === "system" ? "system prompt" : "user message");
      }
      if (event.type !== "call") continue;
      const args = event.args ?? {};
      const result = results.get(event.id);
      const output = result === undefined ? "" : result.data !== undefined ? result.data : String(result.content ?? "");
      let decision = guard.decide(event.tool, args);
      const labelBefore = guard.label;
      let status: string | undefined;
      let fed = false;
      const steps = decision.recovery?.found
        // deno-lint-ignore no-explicit-any
        ? decision.recovery.steps.filter((item: any) => item.kind === "ruling")
        : [];
      if (decision.outcome !== "allow" && rulings.includes(event.id) && steps.length) {
        const given = [];
        const refused: string[] = [];
        let userConfirms = false;
        for (const item of steps) {
          if (item.approver === "user") userConfirms = true;
          else {
            try {
              given.push(guard.requestRuling(item.approver, event.tool, args));
            } catch (error) {
              refused.push(problem(error));
            }
          }
        }
        const proposal = await guard.propose(event.tool, args, {
          rulings: given,
          accept: true,
          run: () => output,
          ...(userConfirms ? { confirm: () => true } : {}),
        });
        decision = proposal.decision;
        fed = proposal.status === "done";
        status = fed
          ? `ran after the ruling${result === undefined ? " (the conversation has no output for it)" : ""}`
          : `still ${proposal.status === "blocked" ? "blocked" : "waiting"} after the ruling${
            refused.length ? `: ${refused.join("; ")}` : ""
          }`;
      }
      calls.push({
        id: event.id,
        tool: event.tool,
        args,
        ...(typeof event.actor === "string" ? { actor: event.actor } : {}),
        outcome: decision.outcome,
        // deno-lint-ignore no-explicit-any
        reasons: decision.gaps.map((gap: any) => ({ code: gap.code, message: gap.message })),
        // deno-lint-ignore no-explicit-any
        vouching: decision.evidence.map((item: any) => ({
          argument: item.argument,
          value: item.value,
          sources: item.sources,
        })),
        // deno-lint-ignore no-explicit-any
        notes: decision.notes.map((note: any) => ({ code: note.code, message: note.message })),
        ...(decision.recovery ? { wayToYes: pab.formatRecovery(decision.recovery) } : {}),
        // deno-lint-ignore no-explicit-any
        waived: decision.waived.map((item: any) => `${item.code} waived by ${item.approver} (ruling ${item.ruling})`),
        ...(status ? { status } : {}),
        canRule: steps.length > 0,
      });
      timeline.push({
        event: `call ${event.tool}`,
        label: pab.formatPartialLabel(labelBefore),
        trust: labelBefore.known.trust,
        outcome: decision.outcome,
      });
      if (fed) step(`${event.tool} ran after the ruling`);
      if (result === undefined || fed) continue;
      const recorded = { args, ...(result.data === undefined ? {} : { data: result.data }) };
      let done = false;
      if (decision.outcome === "allow" && result.error === undefined) {
        done = (await guard.propose(event.tool, args, { accept: true, run: () => output })).status === "done";
      }
      if (!done) guard.record(event.tool, String(result.content ?? ""), recorded);
      step(`${event.tool} returned${result.error === undefined ? "" : " an error"}`);
    }
  } catch (error) {
    return { calls, timeline, error: problem(error) };
  }
  return { calls, timeline };
}

/** The page's elements the app reads and writes, by id. */
export const PAGE_IDS: readonly string[] = Object.freeze([
  "example",
  "load",
  "run",
  "policy",
  "conversation",
  "error",
  "summary",
  "timeline",
  "calls",
]);

/**
 * Wire the page: load an example, decide on click, apply or withdraw a
 * ruling per call. `examples` maps an example's name to its policy and
 * conversation texts.
 *
 * @example
 * ```ts ignore
 * // In the page: startPlayground(pab, document, await (await fetch("/examples.json")).json());
 * ```
 */
export function startPlayground(
  // deno-lint-ignore no-explicit-any
  pab: any,
  // deno-lint-ignore no-explicit-any
  doc: any,
  examples: Readonly<Record<string, { readonly policy: string; readonly conversation: string }>>,
): void {
  const byId = (id: string) => doc.getElementById(id);
  const rulings = new Set<string>();
  const names = Object.keys(examples);
  byId("example").innerHTML = names.map((name) => `<option value="${escapeHtml(name)}">${escapeHtml(name)}</option>`)
    .join("");
  const load = () => {
    const example = examples[byId("example").value];
    if (!example) return;
    byId("policy").value = example.policy;
    byId("conversation").value = example.conversation;
    rulings.clear();
    void run();
  };
  const run = async () => {
    const outcome = await replayConversation(pab, byId("policy").value, byId("conversation").value, [...rulings]);
    const error = byId("error");
    error.hidden = !outcome.error;
    error.textContent = outcome.error ?? "";
    byId("summary").textContent = outcomeSummary(outcome.calls.map((call) => call.outcome));
    byId("timeline").innerHTML = renderTimeline(outcome.timeline);
    byId("calls").innerHTML = outcome.calls.map((call) => {
      const ruled = rulings.has(call.id);
      const button = ruled
        ? `<button class="withdraw-ruling" data-call="${escapeHtml(call.id)}">Withdraw the ruling</button>`
        : call.canRule && call.outcome !== "allow"
        ? `<button class="apply-ruling" data-call="${escapeHtml(call.id)}">Apply the ruling</button>`
        : "";
      return renderCall(call, button ? `<p class="actions">${button}</p>` : "");
    }).join("");
    doc.body.dataset.runs = String(Number(doc.body.dataset.runs ?? 0) + 1);
  };
  byId("load").addEventListener("click", load);
  byId("run").addEventListener("click", () => void run());
  // deno-lint-ignore no-explicit-any
  byId("calls").addEventListener("click", (event: any) => {
    const button = event.target.closest("button[data-call]");
    if (!button) return;
    const id = button.dataset.call;
    if (rulings.has(id)) rulings.delete(id);
    else rulings.add(id);
    void run();
  });
  load();
}
