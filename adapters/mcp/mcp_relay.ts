/**
 * The relay between an MCP client and the real MCP server, with the guard in
 * the middle: every `tools/call` is decided before it is relayed and every
 * result is recorded under its label; everything else passes through.
 *
 * @module
 */
import type { JSONRPCMessage } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import { errorText, isRecord } from "../../core/mod.ts";
import type { Guard } from "../../guard/mod.ts";
import { DESCRIPTIONS_TOOL, guardForServer } from "./guard_for_server.ts";
import type { LineProblem } from "./json_rpc_lines.ts";
import { OwnRequests, type Response, type Side } from "./own_requests.ts";
import { type CallContext, RelayedCall } from "./relayed_call.ts";
import type { McpRelayOptions, Proposer } from "./relay_options.ts";
import { answerProblem, answerUndelivered, type FaultContext } from "./relay_faults.ts";
import { ServerSignals } from "./server_signals.ts";
import { listAllTools, ToolCatalog } from "./tool_catalog.ts";
import { cancelledId, key, WaitingRequests } from "./waiting_requests.ts";

type Message = Record<string, unknown> & { id?: string | number; method?: string; params?: unknown };

/**
 * Relays MCP messages between a client and a server through a guard.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InMemoryTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/inMemory.js";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { McpRelay } from "./mcp_relay.ts";
 * const [client, agent] = InMemoryTransport.createLinkedPair();
 * const [server, tools] = InMemoryTransport.createLinkedPair();
 * const relay = new McpRelay({ policy: parsePolicy("version: 1\n"), client, server });
 * await relay.start();
 * const seen: unknown[] = [];
 * tools.onmessage = (message: unknown) => void seen.push(message);
 * await tools.start();
 * await agent.start();
 * await agent.send({ jsonrpc: "2.0", method: "notifications/initialized" });
 * assert.deepEqual(seen, [{ jsonrpc: "2.0", method: "notifications/initialized" }]);
 * await relay.close();
 * ```
 */
export class McpRelay {
  readonly #options: McpRelayOptions;
  readonly #hidden: ReadonlySet<string>;
  readonly #signals: ServerSignals;
  readonly #catalog = new ToolCatalog();
  readonly #own: OwnRequests;
  /** Requests each side sent that pass through to the other, by id (keyed by type and value): only their responses pass back. */
  readonly #waiting = new WaitingRequests();
  /** Ids of the client's tools/list requests whose results pass through. */
  readonly #lists = new Set<string>();
  /** Ids of the client's resources/read and prompts/get requests, with their method: their results reach the model. */
  readonly #reads = new Map<string, string>();
  /** Tool definitions the client was shown and the guard has not recorded yet. */
  #shown: Record<string, unknown>[] = [];
  /** Other things the server showed the client (resources read, prompts), to record before the next call. */
  #inputs: { readonly tool: string; readonly output: unknown }[] = [];
  readonly #recordedDefinitions = new Set<string>();
  #guard: Promise<Guard> | undefined;
  #proposer: Promise<Proposer> | undefined;
  #canAsk = false;
  #closing = false;
  /** The client's input ended: the relay closes once every request it sent is answered. */
  #clientEnded = false;
  #drain: ReturnType<typeof setTimeout> | undefined;
  readonly #closed: Promise<void>;
  #markClosed!: () => void;

  /** Make a relay; {@linkcode McpRelay.start} starts both transports. */
  constructor(options: McpRelayOptions) {
    this.#options = options;
    this.#hidden = new Set(options.hide ?? []);
    this.#signals = new ServerSignals(options.policy);
    this.#own = new OwnRequests(options.random ?? ((bytes) => crypto.getRandomValues(bytes)));
    this.#closed = new Promise((resolve) => this.#markClosed = resolve);
  }

  /** Resolves when either side has closed and the relay has shut down. */
  get closed(): Promise<void> {
    return this.#closed;
  }

  /** The guard, once the first tool call made it (for inspection and tests); undefined with `options.proposer`. */
  get guard(): Promise<Guard> | undefined {
    return this.#guard;
  }

  /** Start relaying. Transports with an `onproblem` hook (`LineTransport`) have their malformed lines answered. */
  async start(): Promise<void> {
    const { client, server } = this.#options;
    client.onmessage = (message: JSONRPCMessage) => this.#fromClient(message as unknown as Message);
    server.onmessage = (message: JSONRPCMessage) => this.#fromServer(message as unknown as Message);
    const faults = this.#faults();
    (client as { onproblem?: (problem: LineProblem) => void }).onproblem = (p) => answerProblem(faults, "client", p);
    (server as { onproblem?: (problem: LineProblem) => void }).onproblem = (p) => answerProblem(faults, "server", p);
    client.onclose = () => this.#clientGone();
    server.onclose = () => this.#serverGone();
    client.onerror = (error: Error) => this.#log(`client stream: ${error.message}`);
    server.onerror = (error: Error) => this.#log(`server stream: ${error.message}`);
    await server.start();
    await client.start();
  }

  /** Close both sides (idempotent). */
  async close(): Promise<void> {
    if (this.#closing) return await this.#closed;
    this.#closing = true;
    clearTimeout(this.#drain);
    this.#own.failAll({ code: -32000, message: "connection closed" });
    await Promise.allSettled([this.#options.client.close(), this.#options.server.close()]);
    this.#markClosed();
  }

  /**
   * The client's input ended: what it asked is still answered (its output
   * stays open), what pab asked it fails, and the relay closes once nothing
   * the client sent waits for an answer, or after {@linkcode REQUEST_TIMEOUT_MS}.
   */
  #clientGone(): void {
    if (this.#closing || this.#clientEnded) return;
    this.#clientEnded = true;
    this.#own.fail("client", { code: -32000, message: "pab mcp: the client closed its input before answering" });
    this.#drain = setTimeout(() => {
      this.#answerPending(
        "timeout",
        `the client closed its input and the MCP server did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`,
      );
      void this.close();
    }, REQUEST_TIMEOUT_MS);
    this.#closeWhenAnswered();
  }

  /** The server closed the connection (it exited or closed its output): every request waiting on it is answered. */
  #serverGone(): void {
    if (this.#closing) return;
    this.#answerPending(
      "server-closed",
      "the MCP server closed the connection (it exited or closed its output) before answering; restart the session",
    );
    void this.close();
  }

  #closeWhenAnswered(): void {
    if (this.#clientEnded && !this.#waiting.clientWaits) void this.close();
  }

  /** Answer every request of the client that waits for an answer with a coded error, before the relay closes. */
  #answerPending(kind: string, why: string): void {
    const error = { code: -32000, message: `pab mcp: ${why}`, data: { kind } };
    const count = this.#waiting.abandonClient(error, (id) => void this.#send("client", { jsonrpc: "2.0", id, error }));
    if (count) this.#log(`${why}: answered ${count} waiting request(s) of the client`);
  }

  #fromClient(message: Message): void {
    if (isResponse(message)) {
      // Only the client answers what pab asked the client, and only a request the server sent passes back to it.
      if (!this.#own.take("client", message)) this.#passBack("client", message);
      return;
    }
    if (this.#duplicate("client", message)) return;
    if (message.method === "initialize") this.#canAsk = canElicit(message.params);
    if (message.method === "notifications/cancelled") {
      const relayed = this.#cancelled(message);
      if (!relayed) return;
      message = relayed;
    }
    if (message.method === "tools/list" && message.id !== undefined) this.#lists.add(key(message.id));
    if ((message.method === "resources/read" || message.method === "prompts/get") && message.id !== undefined) {
      this.#reads.set(key(message.id), message.method);
    }
    if (message.method === "tools/call" && message.id !== undefined) {
      const call = new RelayedCall(this.#context(), message, this.#own.newId());
      this.#waiting.addCall(message.id, call);
      call.run().catch((error) => this.#log(`tools/call failed: ${errorText(error)}`))
        .finally(() => {
          this.#waiting.endCall(message.id!, call);
          this.#closeWhenAnswered();
        });
      return;
    }
    this.#pass("client", message);
  }

  #fromServer(message: Message): void {
    if (isResponse(message)) {
      // Only the server answers what pab asked the server, and only a request the client sent passes back to it.
      if (this.#own.take("server", message)) return;
      if (this.#lists.delete(key(message.id!))) message = this.#listed(message, true);
      const read = this.#reads.get(key(message.id!));
      this.#reads.delete(key(message.id!));
      if (read && isRecord(message.result)) this.#inputs.push({ tool: read, output: message.result });
      return this.#passBack("server", message);
    }
    if (this.#duplicate("server", message)) return;
    if (message.method === "notifications/tools/list_changed") this.#catalog.markStale();
    if (message.method === "notifications/cancelled") this.#waiting.withdraw("server", cancelledId(message.params));
    this.#pass("server", message);
  }

  /** A request under an id its side still waits on (the answers could not be told apart): refused with `-32600`. */
  #duplicate(from: Side, message: Message): boolean {
    if (message.id === undefined) return false;
    if (!this.#waiting.has(from, message.id)) return false;
    const why = `the id ${
      JSON.stringify(message.id)
    } is already used by a request of the ${from} that waits for its answer`;
    const error = {
      code: -32600,
      message: `pab mcp: ${why} (use a new id for each request)`,
      data: { kind: "invalid" },
    };
    void this.#send(from, { jsonrpc: "2.0", id: message.id, error });
    this.#log(`${why}: answered the ${from} with error -32600`);
    return true;
  }

  /** Pass a request or notification from one side to the other, noting a request's id for its response. */
  #pass(from: Side, message: Message): void {
    if (message.id !== undefined) this.#waiting.pass(from, message.id);
    void this.#send(from === "client" ? "server" : "client", message);
  }

  /** Pass a response back only to the side whose request it answers; any other is dropped (a forgery or a stray). */
  #passBack(from: Side, message: Message): void {
    const to: Side = from === "client" ? "server" : "client";
    if (this.#waiting.answered(to, message.id!)) {
      void this.#send(to, message);
      return this.#closeWhenAnswered();
    }
    this.#log(`dropped a response from the ${from} to no request the ${to} sent (id ${JSON.stringify(message.id)})`);
  }

  /**
   * The client cancelled a request. A relayed call stops where it is (a
   * question to the user is withdrawn, a call not yet relayed never is); one
   * the server runs is cancelled there under the id the server knows.
   */
  #cancelled(message: Message): Message | undefined {
    const id = cancelledId(message.params);
    if (id === undefined) return message;
    // The client waits no more: an answer that comes anyway is dropped, and a client that ended need not wait for it.
    const call = this.#waiting.withdraw("client", id);
    this.#closeWhenAnswered();
    if (call === undefined) return message;
    call.cancel();
    const atServer = this.#own.take("server", {
      jsonrpc: "2.0",
      id: call.serverId,
      error: { code: -32800, message: "Request cancelled" },
    });
    this.#log(
      `the client cancelled tools/call ${JSON.stringify(id)}: ${atServer ? "cancelled at the server" : "not relayed"}`,
    );
    return atServer ? { ...message, params: { ...message.params as object, requestId: call.serverId } } : undefined;
  }

  /** A `tools/list` result: note each tool's definition and annotations, and leave hidden tools out. */
  #listed(message: Message, shown: boolean): Message {
    const result = message.result;
    if (!isRecord(result) || !Array.isArray(result.tools)) return message;
    const last = typeof result.nextCursor !== "string" || !result.nextCursor;
    for (const change of this.#catalog.list(result.tools, last)) {
      this.#log(`the server ${change.kind} ${change.tool} (${change.parts.join(", ")}): held until the user approves`);
    }
    for (const tool of result.tools) {
      if (isRecord(tool) && typeof tool.name === "string") this.#signals.annotate(tool.name, tool.annotations);
    }
    const tools = result.tools.filter((tool) => !(isRecord(tool) && this.#hidden.has(String(tool.name))));
    if (shown) this.#shown.push(...tools.filter(isRecord));
    return this.#hidden.size ? { ...message, result: { ...result, tools } } : message;
  }

  /** What a relayed call needs from the relay. */
  #context(): CallContext {
    return {
      options: this.#options,
      hidden: this.#hidden,
      signals: this.#signals,
      catalog: this.#catalog,
      canAsk: () => this.#canAsk,
      proposer: () => this.#proposerWithInputs(),
      request: (to, method, params, id) => this.#request(to, method, params, id),
      newId: () => this.#own.newId(),
      cancel: (to, id) => {
        void this.#send(to, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } });
        this.#own.take(to, { jsonrpc: "2.0", id, error: { code: -32800, message: "Request cancelled" } });
      },
      send: (to, message) => this.#send(to, message),
      log: (line) => this.#log(line),
    };
  }

  /** What proposes calls, with what the client was shown recorded first (tool definitions, resources, prompts). */
  async #proposerWithInputs(): Promise<Proposer> {
    if (this.#catalog.stale) await this.#serverTools();
    const proposer = await this.#ready();
    const fresh = this.#shown.filter((tool) => {
      const id = JSON.stringify(tool);
      if (this.#recordedDefinitions.has(id)) return false;
      this.#recordedDefinitions.add(id);
      return true;
    });
    this.#shown = [];
    const inputs = this.#inputs;
    this.#inputs = [];
    if (!proposer.record) return proposer;
    if (fresh.length) await proposer.record(DESCRIPTIONS_TOOL, { tools: fresh });
    for (const input of inputs) await proposer.record(input.tool, input.output);
    return proposer;
  }

  /** Send a request to `side` under a fresh id (or `id`, made by `newId`), and wait for its response from that side only. */
  #request(to: Side, method: string, params: unknown, id?: string): Promise<Response> {
    const opened = this.#own.open(to, id);
    void this.#send(to, { jsonrpc: "2.0", id: opened.id, method, params });
    return opened.response;
  }

  async #send(to: Side, message: Message): Promise<void> {
    if (this.#closing) return;
    const transport = to === "client" ? this.#options.client : this.#options.server;
    try {
      await transport.send(message as unknown as JSONRPCMessage);
    } catch (error) {
      answerUndelivered(this.#faults(), to, message, error);
    }
  }

  /** What answering a fault needs from the relay. */
  #faults(): FaultContext {
    return {
      own: this.#own,
      waiting: this.#waiting,
      send: (to, message) => this.#send(to, message),
      log: (line) => this.#log(line),
      forget: (id) => {
        this.#lists.delete(key(id));
        this.#reads.delete(key(id));
      },
      closeWhenAnswered: () => this.#closeWhenAnswered(),
    };
  }

  /** What proposes calls: the guard in memory, or what `options.proposer` makes; the user's request first. */
  #ready(): Promise<Proposer> {
    this.#proposer ??= this.#serverTools().then(async (tools) => {
      const { proposer, ceiling, policy, request } = this.#options;
      const made: Proposer = proposer
        ? await proposer({ tools, signals: this.#signals, ...(ceiling ? { ceiling } : {}) })
        : await (this.#guard = Promise.resolve(guardForServer(policy, { tools, signals: this.#signals, ceiling })));
      if (request !== undefined && made.user) await made.user(request);
      return made;
    });
    return this.#proposer;
  }

  /**
   * Every tool the server lists, page by page (their definitions and
   * annotations are noted as they pass); a page the server leaves unanswered
   * for `listTimeoutMs` ends the listing.
   */
  #serverTools(): Promise<string[]> {
    const ms = this.#options.listTimeoutMs ?? REQUEST_TIMEOUT_MS;
    const late = { code: -32001, message: `pab mcp: the server did not answer tools/list within ${ms / 1000} s` };
    return listAllTools(async (cursor) => {
      const opened = this.#own.open("server", undefined, { ms, error: late });
      void this.#send("server", {
        jsonrpc: "2.0",
        id: opened.id,
        method: "tools/list",
        params: cursor ? { cursor } : {},
      });
      const listed = this.#listed(await opened.response as Message, false);
      if (listed.error === late) this.#log(late.message.slice("pab mcp: ".length));
      return isRecord(listed.result) ? listed.result : {};
    }, (line) => this.#log(line));
  }

  #log(line: string): void {
    this.#options.log?.(`pab mcp: ${line}`);
  }
}

/** The MCP SDK's request timeout: how long a relay whose client closed its input, or pab's own tools/list, waits. */
const REQUEST_TIMEOUT_MS = 60_000;

function canElicit(params: unknown): boolean {
  const capabilities = isRecord(params) && isRecord(params.capabilities) ? params.capabilities : {};
  const elicitation = capabilities.elicitation;
  return isRecord(elicitation) && (Object.keys(elicitation).length === 0 || isRecord(elicitation.form));
}

function isResponse(message: Message): boolean {
  return message.method === undefined && message.id !== undefined && ("result" in message || "error" in message);
}
