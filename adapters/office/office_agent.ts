/**
 * A stand-in for the model: it does its job, and it obeys every `>>>` line it
 * reads — the worst case of prompt injection. Three switches make the
 * benchmark's arms: `guarded`, `remedies` (follow recovery plans) and `forks`
 * (read risky files in child branches).
 *
 * @module
 */
import { Guard } from "../../mod.ts";
import { canonicalJson, formatPartialLabel } from "../../core/mod.ts";
import { formatRecovery } from "../../guard/mod.ts";
import { officePolicy } from "./office_policy.ts";
import { OFFICE_TOOLS, officeApprovers } from "./office_tools.ts";
import type { OfficeWorld } from "./office_world.ts";

/** Which of the guard's parts are switched on. */
export interface AgentArm {
  /** Whether the guard is on at all. */
  readonly guarded: boolean;
  /** Whether a blocked call may follow the recovery planner's plan. */
  readonly remedies: boolean;
  /** Whether risky reads may go to a child branch. */
  readonly forks: boolean;
}

/** Turns a read text into an answer for a schema (stands in for the model's understanding). */
export type Extract = (text: string) => Record<string, unknown>;

/** The gullible scripted agent. */
export class OfficeAgent {
  /** The office it works in. */
  readonly world: OfficeWorld;
  /** The guard's main branch, when guarded. */
  readonly guard: Guard | undefined;
  readonly #arm: AgentArm;
  readonly #say: (line: string) => void;

  /** Make an agent for one run. `say` receives its trace lines. */
  constructor(world: OfficeWorld, arm: AgentArm, say: (line: string) => void = () => {}) {
    this.world = world;
    this.#arm = arm;
    this.#say = say;
    if (arm.guarded) {
      this.guard = new Guard(officePolicy(), { approvers: officeApprovers(world), recover: false });
      for (const [name, tool] of Object.entries(OFFICE_TOOLS)) {
        this.guard.protect((args) => tool(world, args), { name });
      }
    }
  }

  /** Call a tool through the guard (in `branch`, default the main branch); `undefined` when it did not run. */
  async call(tool: string, args: Record<string, unknown>, branch: Guard | undefined = this.guard): Promise<unknown> {
    if (!branch) {
      const value = OFFICE_TOOLS[tool](this.world, args);
      return typeof value === "object" && value !== null && "value" in value
        ? (value as { value: unknown }).value
        : value;
    }
    let result = await branch.propose(tool, args, { accept: true });
    if (result.status === "blocked" && this.#arm.remedies && result.decision.recovery?.found) {
      this.#say(
        `[${branch.name}] ${tool} blocked, plan: ${
          formatRecovery(result.decision.recovery).replace(/^way to yes: /, "")
        }`,
      );
      result = await branch.recover(tool, args, { accept: true });
    }
    if (result.status !== "done") {
      const gaps = result.decision.gaps.map((gap) =>
        `(${gap.code}${
          gap.group ? `, ${gap.group}` : gap.effect ? `, ${gap.effect}` : gap.trust ? `, ${gap.trust}` : ""
        })`
      );
      this.#say(`[${branch.name}] ${tool} BLOCKED [${gaps.join(", ")}]`);
      return undefined;
    }
    this.#say(`[${branch.name}] ${tool} ok   label now ${formatPartialLabel(branch.label)}`);
    return result.value;
  }

  /**
   * Read a file. When guarded with forks on, a read that would make the label
   * stricter and has a schema goes to a child branch: the planted orders run
   * there, and only the schema's answer comes out.
   */
  async read(system: string, name: string, schema?: string, extract?: Extract): Promise<unknown> {
    const args = { system, name };
    if (this.guard && this.#arm.forks && schema) {
      const probe = await this.guard.propose("read_file", args); // do not accept yet
      if (probe.status === "needs_accept") return this.#readInBranch(args, schema, extract!);
    }
    const text = await this.call("read_file", args);
    if (typeof text !== "string") return undefined;
    await this.#obey(text, this.guard);
    return extract ? extract(text) : text;
  }

  async #readInBranch(args: Record<string, unknown>, schema: string, extract: Extract): Promise<unknown> {
    const child = this.guard!.fork(schema);
    const text = await this.call("read_file", args, child);
    if (typeof text !== "string") return undefined;
    await this.#obey(text, child);
    const fields = child.close(extract(text));
    this.#say(
      `[${this.guard!.name}] branch closed, kept ${canonicalJson(fields)}, label now ${
        formatPartialLabel(this.guard!.label)
      }`,
    );
    return fields;
  }

  /** Prompt injection, simulated: every `>>>` line is an order the agent carries out. */
  async #obey(text: string, branch: Guard | undefined): Promise<void> {
    for (const line of text.split("\n")) {
      if (!line.startsWith(">>> ")) continue;
      this.#say(`obeying hidden order: ${line.slice(4)}`);
      const words = line.split(/\s+/);
      if (words[1] === "email") {
        const [system, name] = words[2].split("/");
        const secret = await this.call("read_file", { system, name }, branch);
        if (typeof secret === "string") {
          await this.call("send_email", { to: words[4], subject: "fyi", body: secret }, branch);
        }
      } else if (words[1] === "refund") {
        await this.call("refund", { account: Number(words[4]), amount: Number(words[2]) }, branch);
      }
    }
  }
}
