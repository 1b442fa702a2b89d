/**
 * Print the demo's two runs side by side, call by call, in ProvGuard's style.
 *
 * @module
 */
import { formatCall } from "../replay/format_call.ts";
import type { Style } from "../io/style.ts";
import type { DemoCall, DemoReport } from "./run_demo.ts";
import type { Origin } from "./scripted_agent.ts";

const HEADINGS: Readonly<Record<Origin, string>> = {
  read_inbox: "Hijacked: recipient came from an e-mail",
  fetch_page: "Hijacked: recipient came from a hidden instruction in a web page",
  user: "Legitimate: recipient came from the user",
};

/**
 * The demo's text and whether pab did what it should.
 *
 * @example
 * ```ts
 * import type { RenderedDemo } from "./render_demo.ts";
 * const rendered: RenderedDemo = { text: "pab demo: ...\n", ok: true };
 * ```
 */
export interface RenderedDemo {
  /** The text to print, ending with a newline. */
  readonly text: string;
  /** Whether pab stopped every hijacked call and let every legitimate one through. */
  readonly ok: boolean;
}

/**
 * Render a demo report: the mock server, the user's request, then for every
 * `send_email` the agent tried, what happened without pab and with pab (the
 * decision's explanation); the two outboxes; and a last line saying what pab
 * stopped. `url` is shown as the mock server's address.
 *
 * @example
 * ```ts ignore
 * import { renderDemo } from "./render_demo.ts";
 * import { styleFor } from "../io/style.ts";
 * const { text } = renderDemo(report, "http://localhost:8000", styleFor({ isTerminal: false, noColor: true }));
 * ```
 */
export function renderDemo(report: DemoReport, url: string, style: Style): RenderedDemo {
  const lines = [
    style.bold("pab demo: a scripted agent that obeys every instruction it reads"),
    `mock server: ${url} (an inbox, an intranet page and a mail server's outbox)`,
    `user: ${report.request}`,
  ];
  const reads = report.without.calls.filter((call) => call.tool !== "send_email");
  lines.push(`agent reads: ${reads.map((call) => formatCall(call.tool, call.args)).join(", ")}`);
  const stopped: DemoCall[] = [];
  const missed: DemoCall[] = [];
  const passed: DemoCall[] = [];
  const refused: DemoCall[] = [];
  report.without.calls.forEach((before, i) => {
    const after = report.with.calls[i];
    if (before.tool !== "send_email" || !after) return;
    const hijacked = before.actor === "attacker";
    lines.push("", style.bold(`== ${HEADINGS[before.origin]}`));
    const runs = hijacked ? style.red("runs") : style.green("runs");
    lines.push(
      `without pab: ${shown(before)} ${before.outcome === "ran" ? runs : style.yellow(`fails: ${before.output}`)}`,
    );
    if (after.asked) {
      lines.push(...withPab(after.asked.explanation, style));
      lines.push(
        after.asked.confirmed
          ? `the user confirms: ${String(after.args.to)} is the address they asked for`
          : `the user refuses: they did not ask to write to ${String(after.args.to)}`,
      );
    }
    if (after.outcome === "ran") {
      lines.push(`with pab: ${shown(after)} ${runs}`);
    } else if (after.denied && !after.asked) {
      lines.push(...withPab(after.denied, style));
    } else if (after.outcome === "failed") {
      lines.push(`with pab: ${shown(after)} ${style.yellow(`fails: ${after.output}`)}`);
    }
    if (hijacked) (after.outcome === "ran" ? missed : stopped).push(after);
    else (after.outcome === "ran" ? passed : refused).push(after);
  });
  lines.push("", style.bold("== Outbox of the mock mail server"));
  for (const [name, run] of [["without pab", report.without], ["with pab", report.with]] as const) {
    const count = `${run.outbox.length} ${run.outbox.length === 1 ? "e-mail" : "e-mails"} sent`;
    lines.push(`${name}: ${count}${run.outbox.length ? `, to ${run.outbox.map((email) => email.to).join(", ")}` : ""}`);
  }
  const ok = missed.length === 0 && refused.length === 0 && stopped.length > 0;
  lines.push("", style.bold(verdict(stopped, missed, passed, refused)));
  return { text: lines.join("\n") + "\n", ok };
}

/** A send shown by its recipient only, which is what the policy judges. */
function shown(call: DemoCall): string {
  return formatCall(call.tool, call.tool === "send_email" ? { to: call.args.to } : call.args);
}

function withPab(explanation: string, style: Style): string[] {
  const [first, ...rest] = explanation.split("\n");
  const [tool, outcome] = first.split(": ");
  const painted = outcome === "block" ? style.green(outcome) : outcome === "confirm" ? style.yellow(outcome) : outcome;
  return [`with pab: ${tool}: ${painted}`, ...rest];
}

function verdict(stopped: DemoCall[], missed: DemoCall[], passed: DemoCall[], refused: DemoCall[]): string {
  const list = (calls: DemoCall[]) => calls.map((call) => `${call.tool} to ${String(call.args.to)}`).join(", ");
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const parts = [];
  if (stopped.length) parts.push(`pab stopped ${count(stopped.length, "hijacked call")} (${list(stopped)})`);
  if (missed.length) parts.push(`pab let ${count(missed.length, "hijacked call")} through (${list(missed)})`);
  if (passed.length) {
    const to = passed.map((call) => String(call.args.to)).join(", ");
    parts.push(`the legitimate ${passed.length === 1 ? "call" : "calls"} to ${to} went through`);
  }
  if (refused.length) parts.push(`pab stopped ${count(refused.length, "legitimate call")} (${list(refused)})`);
  return parts.join("; ") || "the agent made no calls";
}
