/**
 * One `tools/call` through the relay: a changed tool is approved first, the
 * call is decided, the user asked where the policy lets them decide (or, for
 * values pab saw in no input, whether the values are theirs), and the server's
 * result recorded as the model sees it, under the tool's label.
 *
 * @module
 */
import { errorText, isRecord, meet } from "../../core/mod.ts";
import { type Decision, gapKey, type ProposeResult, withLabel } from "../../guard/mod.ts";
import type { McpRelayOptions, Proposer } from "./relay_options.ts";
import { modelView, untrustedLabel } from "./model_view.ts";
import type { Response, Side } from "./own_requests.ts";
import type { ServerSignals } from "./server_signals.ts";
import {
  type AllowQuestion,
  changeElicitation,
  deniedResult,
  rulingElicitation,
  type ToolResult,
  userAllowed,
  vouchElicitation,
} from "./tool_call_answers.ts";
import type { ToolCatalog } from "./tool_catalog.ts";

type Message = Record<string, unknown> & { id?: string | number; method?: string; params?: unknown };

/** What a relayed call needs from its relay. */
export interface CallContext {
  /** The relay's options. */
  readonly options: McpRelayOptions;
  /** Tools left out of the listing and refused. */
  readonly hidden: ReadonlySet<string>;
  /** The server's signals. */
  readonly signals: ServerSignals;
  /** The server's tools, approved and latest. */
  readonly catalog: ToolCatalog;
  /** Whether the client can ask the user. */
  canAsk(): boolean;
  /** What decides and records calls, with pending inputs recorded. */
  proposer(): Promise<Proposer>;
  /** Send a request to one side and wait for that side's response. */
  request(to: Side, method: string, params: unknown, id?: string): Promise<Response>;
  /** A fresh id for a request of pab's own. */
  newId(): string;
  /** Withdraw a request of pab's own: the side is told, and its wait ends with a cancellation error. */
  cancel(to: Side, id: string): void;
  /** Send a message to one side. */
  send(to: Side, message: Message): Promise<void>;
  /** Write a diagnostic line. */
  log(line: string): void;
}

/**
 * One client `tools/call`, decided, relayed under an id of pab's own and
 * answered exactly once.
 *
 * @example
 * ```ts ignore
 * import { RelayedCall } from "./relayed_call.ts";
 * await new RelayedCall(context, request, "pab-0123").run();
 * ```
 */
export class RelayedCall {
  readonly #context: CallContext;
  readonly #request: Message;
  /** The id the server knows this call by (the client's id never reaches the server). */
  readonly serverId: string;
  #relayed: Response | undefined;
  /** Values the user claimed as their own in answer to this call's question, recorded once the call ran. */
  #claimed: readonly string[] | undefined;
  /** Whether this call already asked whether its values are the user's (one such question per call). */
  #askedClaim = false;
  /** Whether the client has its answer (it gets exactly one). */
  #answered = false;
  /** Whether the client cancelled the call: it is not relayed from then on, and not answered. */
  #cancelled = false;
  /** The id of the question this call waits on the user for, if any. */
  #asking: string | undefined;

  /** A call for `request`, relayed to the server as `serverId`. */
  constructor(context: CallContext, request: Message, serverId: string) {
    this.#context = context;
    this.#request = request;
    this.serverId = serverId;
  }

  /** Decide, relay and answer the call. Never throws for what either side sends. */
  async run(): Promise<void> {
    const params = isRecord(this.#request.params) ? this.#request.params : {};
    const tool = params.name;
    const args = params.arguments ?? {};
    if (typeof tool !== "string" || !tool || !isRecord(args)) {
      return await this.#reply({
        error: { code: -32602, message: "Invalid params: tools/call needs a tool name and an object of arguments" },
      });
    }
    if (this.#context.hidden.has(tool)) return await this.#deny(`${tool} is hidden by pab`);
    try {
      const proposer = await this.#context.proposer();
      if (!(await this.#approved(tool))) return;
      let outcome = await this.#propose(proposer, tool, args, params);
      if (outcome.status === "blocked" && !this.#askedClaim) {
        outcome = await this.#vouch(proposer, tool, args, params, outcome.decision);
      }
      if (outcome.status === "done") {
        if (this.#claimed) await proposer.user?.(this.#claimed.join("\n"));
        return await this.#reply(this.#relayed!);
      }
      await this.#answer(deniedResult(outcome.decision, this.#context.canAsk()));
    } catch (error) {
      if (this.#relayed && error instanceof RelayedError) return await this.#reply(this.#relayed);
      if (error instanceof CancelledCall) return this.#context.log(`the client cancelled ${tool}: it was not relayed`);
      // Fail closed: a call the guard could not decide, or whose result it could not record, is denied.
      this.#context.log(`deciding ${tool} failed: ${errorText(error)}`);
      await this.#deny(`the guard failed: ${errorText(error)}`);
    }
  }

  /** A tool the server changed since the session started runs only once the user approves its new definition. */
  async #approved(tool: string): Promise<boolean> {
    const { catalog } = this.#context;
    const change = catalog.held(tool);
    if (!change) return true;
    const what = `the MCP server ${change.kind} ${tool} (${change.parts.join(", ")}) after the session started`;
    if (!this.#context.canAsk()) {
      await this.#deny(
        `${what}, and this client cannot ask the user to approve the new definition (no elicitation capability); ` +
          "restart the session to start from the server's current tools",
      );
      return false;
    }
    if (!(await this.#ask(changeElicitation(change, catalog.definition(tool))))) {
      await this.#deny(`${what}, and the user did not approve the new definition`);
      return false;
    }
    catalog.approve(tool);
    this.#context.log(`the user approved the new definition of ${tool}`);
    return true;
  }

  #propose(
    proposer: Proposer,
    tool: string,
    args: Record<string, unknown>,
    params: Record<string, unknown>,
    shown?: Decision,
  ): Promise<ProposeResult> {
    const canAsk = this.#context.canAsk();
    return proposer.propose(tool, args, {
      accept: true,
      ...(canAsk ? { confirm: (decision: Decision) => this.#confirm(proposer, tool, decision, shown) } : {}),
      // Relay exactly the arguments the guard decided on (its private copy), not the request's object.
      run: async (decided) => {
        if (this.#cancelled) throw new CancelledCall("the client cancelled the call before it was relayed");
        this.#relayed = await this.#context.request(
          "server",
          "tools/call",
          { ...params, arguments: decided },
          this.serverId,
        );
        const result = this.#relayed.result;
        if (!isRecord(result)) throw new RelayedError();
        const view = modelView(result);
        const ifc = this.#context.signals.observe(tool, result._meta);
        const untrusted = view.untrusted ? untrustedLabel(this.#context.options.policy.top.readers) : undefined;
        const label = untrusted && ifc ? meet(untrusted, ifc) : untrusted ?? ifc;
        return label ? withLabel(view.value, label) : view.value;
      },
    });
  }

  /**
   * The user's answer to a confirm-level decision. When every gap that asks is
   * a value found in no input pab saw, the question is whether the values are
   * the user's own: a yes allows this call and, once it ran, records the
   * values as the user's words, so a later call that uses them again (a file
   * just written, then edited) is not asked again and is not mistaken for the
   * tool's echo of them. Any other confirm-level decision gets the ruling
   * question.
   */
  async #confirm(proposer: Proposer, tool: string, decision: Decision, shown?: Decision): Promise<boolean> {
    if (covers(shown, decision)) return true;
    const values = claimable(decision);
    if (!values || !proposer.user || this.#context.options.askValues === false) {
      return await this.#ask(rulingElicitation(decision));
    }
    this.#askedClaim = true;
    if (!(await this.#ask(vouchElicitation(decision, values)))) {
      this.#context.log(`the user declined ${tool}: the values are not theirs`);
      return false;
    }
    this.#claimed = values;
    return true;
  }

  /**
   * A call blocked only by values found in no input pab saw: pab cannot see
   * the user's messages, so it asks the user whether the values are theirs.
   * A yes records them as the user's words and decides again; the rest of what
   * the question showed needs no second question.
   */
  async #vouch(
    proposer: Proposer,
    tool: string,
    args: Record<string, unknown>,
    params: Record<string, unknown>,
    decision: Decision,
  ): Promise<ProposeResult> {
    const blocked = { status: "blocked" as const, decision };
    const blocking = decision.gaps.filter((gap) => gap.severity === "block");
    const values = [...new Set(blocking.map((gap) => gap.value).filter((value) => typeof value === "string"))];
    const vouchable = blocking.length > 0 && blocking.every((gap) => gap.code === "invented-argument") &&
      values.length === blocking.length;
    if (!vouchable || !this.#context.canAsk() || this.#context.options.askValues === false || !proposer.user) {
      return blocked;
    }
    if (!(await this.#ask(vouchElicitation(decision, values as string[])))) {
      proposer.ledger?.record("note", "main", {
        tool,
        fingerprint: decision.fingerprint,
        detail: { code: "user-declined", message: `the user did not claim ${values.join(", ")} as theirs` },
      });
      this.#context.log(`the user declined ${tool}: the values are not theirs`);
      return blocked;
    }
    await proposer.user(values.join("\n"));
    return await this.#propose(proposer, tool, args, params, decision);
  }

  async #ask(question: AllowQuestion): Promise<boolean> {
    if (this.#cancelled) return false;
    this.#asking = this.#context.newId();
    const answer = await this.#context.request("client", "elicitation/create", question, this.#asking);
    this.#asking = undefined;
    return !this.#cancelled && userAllowed(answer.result);
  }

  /**
   * The client cancelled the call: a question it waits on is withdrawn (and
   * taken as a no), and a call not yet relayed never reaches the server. A
   * call the server already runs is cancelled there by the relay.
   */
  cancel(): void {
    this.#cancelled = true;
    this.#answered = true;
    if (this.#asking) this.#context.cancel("client", this.#asking);
  }

  #deny(why: string): Promise<void> {
    return this.#answer({ content: [{ type: "text", text: `pab denied this call: ${why}` }], isError: true });
  }

  #answer(result: ToolResult): Promise<void> {
    return this.#reply({ result });
  }

  /** Answer the client with `error` now, unless it has its answer (the relay is closing; see {@linkcode RelayedCall.run}). */
  abandon(error: { readonly code: number; readonly message: string; readonly data?: unknown }): Promise<void> {
    return this.#reply({ error });
  }

  /** Answer the client, under its own id, once. */
  #reply(response: Record<string, unknown>): Promise<void> {
    if (this.#answered) return Promise.resolve();
    this.#answered = true;
    return this.#context.send("client", { ...response, jsonrpc: "2.0", id: this.#request.id });
  }
}

/**
 * The values to ask the user about when every gap of `decision` is a
 * confirm-level `invented-argument` with a text value; else undefined.
 */
function claimable(decision: Decision): string[] | undefined {
  const asking = decision.gaps;
  if (!asking.length || asking.some((gap) => gap.severity !== "confirm" || gap.code !== "invented-argument")) return;
  const values = asking.map((gap) => gap.value);
  if (!values.every((value): value is string => typeof value === "string" && value.length > 0)) return;
  return [...new Set(values)];
}

/** Whether every confirm gap of `decision` was shown to the user in `shown` (their yes to it covers them). */
function covers(shown: Decision | undefined, decision: Decision): boolean {
  if (!shown) return false;
  const seen = new Set(shown.gaps.map(gapKey));
  return decision.gaps.every((gap) => gap.severity !== "confirm" || seen.has(gapKey(gap)));
}

/** The server answered a relayed call with a JSON-RPC error (or no result object): relay it as it is. */
class RelayedError extends Error {}

/** The client cancelled the call before it was relayed. */
class CancelledCall extends Error {}
