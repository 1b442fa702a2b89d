/**
 * The relay between an MCP client and the real MCP server, with the guard in
 * the middle: every `tools/call` is decided before it is relayed and every
 * result is recorded under its label; everything else passes through.
 *
 * @module
 */
import type { Transport } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/transport.js";
import type { JSONRPCMessage } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import type { Label } from "../../core/mod.ts";
import { type Decision, type Guard, type Policy, withLabel } from "../../guard/mod.ts";
import { guardForServer, type ServerGuardOptions } from "./guard_for_server.ts";
import { ServerSignals } from "./server_signals.ts";
import { deniedResult, resultText, rulingElicitation, type ToolResult, userAllowed } from "./tool_call_answers.ts";

/** How to relay. */
export interface McpRelayOptions {
  /** The policy every call is decided by. */
  readonly policy: Policy;
  /** Faces the MCP client (the agent): a server transport, such as stdio. */
  readonly client: Transport;
  /** Faces the real MCP server: a client transport, such as the child's stdio. */
  readonly server: Transport;
  /** Tools left out of `tools/list` and refused if called anyway. */
  readonly hide?: readonly string[];
  /** Ceiling for the server's signals on tools the policy does not name (otherwise they stay unlabelled). */
  readonly ceiling?: Label;
  /** Diagnostics (never written to the client's stream). */
  readonly log?: (line: string) => void;
  /**
   * Makes what decides and records the calls, once the server's tools are
   * known (default: a guard in this process's memory, from `guardForServer`).
   * `pab mcp --store` passes a session kept in a store.
   */
  readonly proposer?: ProposerFactory;
}

/** What decides, runs and records a call, as `Guard.propose` does. */
export type Proposer = Pick<Guard, "propose">;

/** Makes a {@linkcode Proposer} for a server, from its tools and signals (see `labelServerTools`). */
export type ProposerFactory = (server: Omit<ServerGuardOptions, "confirm">) => Promise<Proposer>;

type Id = string | number;
type Message = Record<string, unknown> & { id?: Id; method?: string; params?: unknown };
type Waiter = { resolve: (message: Message) => void };

const OWN_PREFIX = "pab-mcp:";

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
  readonly #waiting = new Map<string, Waiter>();
  readonly #lists = new Set<string>();
  #guard: Promise<Guard> | undefined;
  #proposer: Promise<Proposer> | undefined;
  #counter = 0;
  #canAsk = false;
  #closing = false;
  readonly #closed: Promise<void>;
  #markClosed!: () => void;

  /** Make a relay; {@linkcode McpRelay.start} starts both transports. */
  constructor(options: McpRelayOptions) {
    this.#options = options;
    this.#hidden = new Set(options.hide ?? []);
    this.#signals = new ServerSignals(options.policy);
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

  /** Start relaying. */
  async start(): Promise<void> {
    const { client, server } = this.#options;
    client.onmessage = (message: JSONRPCMessage) => this.#fromClient(message as unknown as Message);
    server.onmessage = (message: JSONRPCMessage) => this.#fromServer(message as unknown as Message);
    client.onclose = () => void this.close();
    server.onclose = () => void this.close();
    client.onerror = (error: Error) => this.#log(`client stream: ${error.message}`);
    server.onerror = (error: Error) => this.#log(`server stream: ${error.message}`);
    await server.start();
    await client.start();
  }

  /** Close both sides (idempotent). */
  async close(): Promise<void> {
    if (this.#closing) return await this.#closed;
    this.#closing = true;
    for (const waiter of this.#waiting.values()) {
      waiter.resolve({ error: { code: -32000, message: "connection closed" } });
    }
    this.#waiting.clear();
    await Promise.allSettled([this.#options.client.close(), this.#options.server.close()]);
    this.#markClosed();
  }

  #fromClient(message: Message): void {
    if (isResponse(message) && this.#take(message)) return;
    if (message.method === "initialize") this.#canAsk = canElicit(message.params);
    if (message.method === "notifications/cancelled") this.#cancelled(message.params);
    if (message.method === "tools/list" && message.id !== undefined) this.#lists.add(key(message.id));
    if (message.method === "tools/call" && message.id !== undefined) {
      this.#call(message).catch((error) => this.#log(`tools/call failed: ${text(error)}`));
      return;
    }
    void this.#send("server", message);
  }

  #fromServer(message: Message): void {
    if (isResponse(message)) {
      if (this.#take(message)) return;
      if (this.#lists.delete(key(message.id!))) message = this.#listed(message);
    }
    void this.#send("client", message);
  }

  /** Resolve a response to a request the relay itself is waiting for. */
  #take(message: Message): boolean {
    const waiter = this.#waiting.get(key(message.id!));
    if (!waiter) return false;
    this.#waiting.delete(key(message.id!));
    waiter.resolve(message);
    return true;
  }

  /** The client cancelled a request: a relayed call waiting for it stops waiting (the server may never answer). */
  #cancelled(params: unknown): void {
    const id = isRecord(params) ? params.requestId : undefined;
    if (typeof id !== "string" && typeof id !== "number") return;
    this.#take({ jsonrpc: "2.0", id, error: { code: -32800, message: "Request cancelled by the client" } });
  }

  /** A `tools/list` result: remember each tool's annotations, and leave hidden tools out. */
  #listed(message: Message): Message {
    const result = message.result;
    if (!isRecord(result) || !Array.isArray(result.tools)) return message;
    for (const tool of result.tools) {
      if (isRecord(tool) && typeof tool.name === "string") this.#signals.annotate(tool.name, tool.annotations);
    }
    if (!this.#hidden.size) return message;
    const tools = result.tools.filter((tool) => !(isRecord(tool) && this.#hidden.has(String(tool.name))));
    return { ...message, result: { ...result, tools } };
  }

  async #call(request: Message): Promise<void> {
    const params = isRecord(request.params) ? request.params : {};
    const tool = params.name;
    const args = params.arguments ?? {};
    if (typeof tool !== "string" || !tool || !isRecord(args)) {
      return void this.#send("client", {
        jsonrpc: "2.0",
        id: request.id,
        error: { code: -32602, message: "Invalid params: tools/call needs a tool name and an object of arguments" },
      });
    }
    const answer = (result: ToolResult) => this.#send("client", { jsonrpc: "2.0", id: request.id, result });
    if (this.#hidden.has(tool)) {
      return void answer({
        content: [{ type: "text", text: `pab denied this call: ${tool} is hidden by pab` }],
        isError: true,
      });
    }
    let relayed: Message | undefined;
    try {
      const guard = await this.#ready();
      const outcome = await guard.propose(tool, args, {
        accept: true,
        ...(this.#canAsk ? { confirm: (decision: Decision) => this.#askUser(decision) } : {}),
        // Relay exactly the arguments the guard decided on (its private copy), not the request's object.
        run: async (decided) => {
          relayed = await this.#request("server", "tools/call", { ...params, arguments: decided }, request.id);
          if (!isRecord(relayed.result)) throw new RelayedError();
          const result = relayed.result as unknown as ToolResult;
          const label = this.#signals.observe(tool, result._meta);
          const seen = resultText(result);
          return label ? withLabel(seen, label) : seen;
        },
      });
      if (outcome.status === "done") return void this.#send("client", { ...relayed!, id: request.id });
      await answer(deniedResult(outcome.decision, this.#canAsk));
    } catch (error) {
      if (relayed && error instanceof RelayedError) return void this.#send("client", { ...relayed, id: request.id });
      // Fail closed: a call the guard could not decide, or whose result it could not record, is denied.
      this.#log(`deciding ${tool} failed: ${text(error)}`);
      await answer({
        content: [{ type: "text", text: `pab denied this call: the guard failed: ${text(error)}` }],
        isError: true,
      });
    }
  }

  /** What proposes calls: the guard in memory, or what `options.proposer` makes. */
  #ready(): Promise<Proposer> {
    const { proposer } = this.#options;
    if (!proposer) return this.#guardReady();
    this.#proposer ??= this.#serverTools().then((tools) =>
      proposer({
        tools,
        signals: this.#signals,
        ...(this.#options.ceiling ? { ceiling: this.#options.ceiling } : {}),
      })
    );
    return this.#proposer;
  }

  /** The guard, made at the first call, once the server's tool list is known (for the casts). */
  #guardReady(): Promise<Guard> {
    this.#guard ??= this.#serverTools().then((tools) =>
      guardForServer(this.#options.policy, { tools, signals: this.#signals, ceiling: this.#options.ceiling })
    );
    return this.#guard;
  }

  /** Every tool the server lists, page by page (their annotations are remembered as they pass). */
  async #serverTools(): Promise<string[]> {
    const tools: string[] = [];
    let cursor: unknown;
    do {
      const listed = this.#listed(await this.#request("server", "tools/list", cursor ? { cursor } : {}));
      const result = isRecord(listed.result) ? listed.result : {};
      for (const tool of Array.isArray(result.tools) ? result.tools : []) {
        if (isRecord(tool) && typeof tool.name === "string") tools.push(tool.name);
      }
      cursor = result.nextCursor;
    } while (typeof cursor === "string" && cursor && tools.length < 10_000);
    return tools;
  }

  async #askUser(decision: Decision): Promise<boolean> {
    const answer = await this.#request("client", "elicitation/create", rulingElicitation(decision));
    return userAllowed(answer.result);
  }

  /** Send a request and wait for its response; `id` reuses the caller's id (a relayed call). */
  #request(to: "client" | "server", method: string, params: unknown, id?: Id): Promise<Message> {
    const own = id ?? `${OWN_PREFIX}${++this.#counter}`;
    return new Promise((resolve) => {
      this.#waiting.set(key(own), { resolve });
      this.#send(to, { jsonrpc: "2.0", id: own, method, params }).catch((error) => {
        this.#waiting.delete(key(own));
        resolve({ error: { code: -32000, message: text(error) } });
      });
    });
  }

  async #send(to: "client" | "server", message: Message): Promise<void> {
    if (this.#closing) return;
    const transport = to === "client" ? this.#options.client : this.#options.server;
    try {
      await transport.send(message as unknown as JSONRPCMessage);
    } catch (error) {
      this.#log(`cannot send to the ${to}: ${text(error)}`);
    }
  }

  #log(line: string): void {
    this.#options.log?.(`pab mcp: ${line}`);
  }
}

/** The server answered a relayed call with a JSON-RPC error: relay it as it is. */
class RelayedError extends Error {}

function canElicit(params: unknown): boolean {
  const capabilities = isRecord(params) && isRecord(params.capabilities) ? params.capabilities : {};
  const elicitation = capabilities.elicitation;
  return isRecord(elicitation) && (Object.keys(elicitation).length === 0 || isRecord(elicitation.form));
}

function isResponse(message: Message): boolean {
  return message.method === undefined && message.id !== undefined && ("result" in message || "error" in message);
}

function key(id: Id): string {
  return `${typeof id}:${id}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
