/**
 * An MCP client transport to a server that speaks Streamable HTTP (the MCP
 * SDK's own client transport), shaped for the relay: a request the server
 * cannot be reached for is answered with a JSON-RPC error instead of waiting
 * for ever, and the protocol version the server chose is sent on every later
 * request, as the SDK's `Client` would.
 *
 * @module
 */
import { StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp.js";
import type { Transport } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/transport.js";
import type { JSONRPCMessage } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import { errorText, isRecord } from "../../core/mod.ts";
import { watchAnswerEnd } from "./http_answer_end.ts";
import { limitMessages, requestIds } from "./http_limits.ts";
import { DEFAULT_MAX_MESSAGE_BYTES } from "./json_rpc_lines.ts";

/** The longest part of the server's own error text quoted in an answer. */
const MAX_QUOTED = 300;
/** How long after an answer ended the SDK has to deliver what it held (it reads it in microtasks; this is a margin). */
const SETTLE_MS = 10;

/**
 * Speaks MCP to the server at a URL over Streamable HTTP. `onclose` fires
 * once, when the transport is closed (an HTTP server has no process to exit);
 * closing ends the server's session (HTTP `DELETE`) when it gave one.
 *
 * @example The error a request gets when nothing listens at the URL
 * ```ts
 * import assert from "node:assert/strict";
 * import { HttpServerTransport } from "./http_transport.ts";
 * const listener = Deno.listen({ hostname: "localhost", port: 0 });
 * const { port } = listener.addr as Deno.NetAddr;
 * listener.close();
 * const transport = new HttpServerTransport(new URL(`http://localhost:${port}/mcp`));
 * const answers: unknown[] = [];
 * transport.onmessage = (message) => void answers.push(message);
 * await transport.start();
 * await transport.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
 * await transport.close();
 * assert.match(JSON.stringify(answers), /"id":1,"error":\{"code":-32000,"message":"pab mcp: cannot reach the MCP server at http:\/\/localhost:\d+\/mcp: /);
 * ```
 */
export class HttpServerTransport implements Transport {
  readonly #url: URL;
  readonly #inner: StreamableHTTPClientTransport;
  /** Ids of the initialize requests sent, whose results name the protocol version. */
  readonly #initializing = new Set<string | number>();
  /** Requests already answered with pab's error (their answer was cut for its size). */
  readonly #answered = new Set<string | number>();
  /** Requests sent that have no response yet. */
  readonly #awaiting = new Set<string | number>();
  readonly #maxMessageBytes: number;
  #closed = false;
  #closing = false;
  /** Called once, when the transport is closed. */
  onclose?: () => void;
  /** Called when a stream to the server fails (the SDK reconnects the server's own stream). */
  onerror?: (error: Error) => void;
  /** Called for every message from the server, and for the errors that answer requests it could not take. */
  onmessage?: (message: JSONRPCMessage) => void;

  /**
   * A transport to the server at `url`; {@linkcode HttpServerTransport.start}
   * starts it. A JSON answer, or an event of a stream, longer than
   * `maxMessageBytes` (default 10 MiB, as over stdio) is cut, and the requests
   * it answered get a `-32600` error.
   */
  constructor(url: URL, options: { readonly maxMessageBytes?: number } = {}) {
    this.#url = url;
    this.#maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    // Redirects stay within the URL's origin (the SDK's default): the sandbox grants no other host anyway.
    this.#inner = new StreamableHTTPClientTransport(url, {
      fetch: (input: string | URL, init?: RequestInit) => this.#fetch(input, init),
    });
    this.#inner.onmessage = (message: JSONRPCMessage) => this.#received(message);
    // The streams this side aborts as it closes are not errors.
    this.#inner.onerror = (error: Error) => this.#closing || this.onerror?.(error);
    this.#inner.onclose = () => this.#finish();
  }

  /** Start (no request is made until the first message). */
  async start(): Promise<void> {
    await this.#inner.start();
  }

  /**
   * Send one message. A request that fails (the server is down, refuses it, or
   * answers with something that is not MCP) is answered with a JSON-RPC error
   * under its id; any other message that fails rejects.
   */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error("the connection to the server is closed");
    const request = isRecord(message) && typeof message.method === "string" &&
      (typeof message.id === "string" || typeof message.id === "number");
    if (request && message.method === "initialize") this.#initializing.add(message.id as string | number);
    if (request) this.#awaiting.add(message.id as string | number);
    try {
      await this.#inner.send(message);
    } catch (error) {
      if (!request) throw error;
      if (!this.#awaiting.delete(message.id as string | number)) return;
      if (this.#answered.delete(message.id as string | number)) return;
      const why = errorText(error).replace(/\s+/g, " ");
      const quoted = why.length > MAX_QUOTED ? `${why.slice(0, MAX_QUOTED)}...` : why;
      this.onmessage?.({
        jsonrpc: "2.0",
        id: message.id as string | number,
        error: {
          code: -32000,
          message: httpStatus(error) === undefined
            ? notMcp(error)
              ? `pab mcp: the MCP server at ${this.#url.href} answered with something that is not an MCP message: ` +
                `${quoted} (check that --url is the server's MCP endpoint)`
              : `pab mcp: cannot reach the MCP server at ${this.#url.href}: ${quoted} (start the server, or check --url)`
            : `pab mcp: the MCP server at ${this.#url.href} answered HTTP ${httpStatus(error)}: ${quoted} ` +
              "(check --url; after the server restarted, restart pab mcp so that it opens a new session)",
        },
      });
    }
  }

  /** End the server's session (when it gave one) and close. */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    await this.#inner.terminateSession().catch(() => {});
    await this.#inner.close();
    this.#finish();
  }

  /** Fetch, with each message of the answer held to the size limit. */
  async #fetch(input: string | URL, init?: RequestInit): Promise<Response> {
    const response = await fetch(input, init);
    const ids = requestIds(init?.body);
    if (response.status < 200 || response.status > 299) return response;
    if (!response.body || [202, 204, 205].includes(response.status)) {
      // Taken without an answer: a request needs a JSON or event-stream answer (the Streamable HTTP spec).
      if (ids.length) this.#unanswered(ids);
      return response;
    }
    const eventStream = /^text\/event-stream\b/i.test(response.headers.get("content-type") ?? "");
    const body = response.body.pipeThrough(limitMessages(this.#maxMessageBytes, eventStream, () => {
      for (const id of ids) {
        if (!this.#awaiting.delete(id)) continue;
        this.#answered.add(id);
        this.onmessage?.({
          jsonrpc: "2.0",
          id,
          error: {
            code: -32600,
            message: `pab mcp: the server's answer is larger than --max-message-bytes (${this.#maxMessageBytes} bytes)`,
          },
        });
      }
    }));
    const watched = ids.length ? watchAnswerEnd(body, (resumable) => resumable || this.#unanswered(ids)) : body;
    return new Response(watched, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  /**
   * The answer to a POST ended: once the SDK has read it, a request it held
   * no response for (another id, an event that is not MCP, a stream closed
   * early) is answered with an error instead of waiting for ever.
   */
  #unanswered(ids: readonly (string | number)[]): void {
    setTimeout(() => {
      for (const id of ids) {
        if (!this.#awaiting.delete(id)) continue;
        this.onmessage?.({
          jsonrpc: "2.0",
          id,
          error: {
            code: -32000,
            message:
              `pab mcp: the MCP server at ${this.#url.href} ended its answer to this request without a response ` +
              "to it (its answer held another id, or a message that is not MCP): check the server",
          },
        });
      }
    }, SETTLE_MS);
  }

  #received(message: JSONRPCMessage): void {
    const id = isRecord(message) ? message.id : undefined;
    if ((typeof id === "string" || typeof id === "number") && !("method" in message)) this.#awaiting.delete(id);
    if ((typeof id === "string" || typeof id === "number") && this.#initializing.delete(id)) {
      const result = (message as { result?: unknown }).result;
      if (isRecord(result) && typeof result.protocolVersion === "string") {
        this.#inner.setProtocolVersion(result.protocolVersion);
      }
    }
    this.onmessage?.(message);
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}

/** Whether the SDK failed on what the server answered (not JSON, not an MCP message, another content type). */
function notMcp(error: unknown): boolean {
  const name = error instanceof Error ? error.name : "";
  return error instanceof SyntaxError || name === "ZodError" || /Unexpected content type/.test(errorText(error));
}

/** The HTTP status of the SDK's `StreamableHTTPError` (its `code`), when the server answered at all. */
function httpStatus(error: unknown): number | undefined {
  const code = isRecord(error) ? error.code : undefined;
  return typeof code === "number" && code >= 100 && code <= 599 ? code : undefined;
}
