/**
 * An MCP transport over a pair of byte streams that speak newline-delimited
 * JSON-RPC (stdio): lines are read in linear time and every line that is not
 * a message is reported, never dropped in silence (see `LineSplitter`).
 *
 * @module
 */
import type { Transport } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/transport.js";
import type { JSONRPCMessage } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import { DEFAULT_MAX_MESSAGE_BYTES, type LineProblem, LineSplitter } from "./json_rpc_lines.ts";

/** A message that would be a line over the limit once written (it is not written). */
export class MessageTooLargeError extends Error {
  /** A line of `bytes` bytes, newline included, over `max`. */
  constructor(bytes: number, max: number) {
    super(
      `the message is ${bytes} bytes as written, over the limit of ${max} bytes ` +
        "(--max-message-bytes sets it; an MCP SDK peer reads lines of at most 10 MiB)",
    );
    this.name = "MessageTooLargeError";
  }
}

/** The two streams and the limit. */
export interface LineStreams {
  /** What the other side writes. */
  readonly readable: ReadableStream<Uint8Array>;
  /** Where this side writes. */
  readonly writable: WritableStream<Uint8Array>;
  /** The most bytes one message may have, incoming, and outgoing with its newline (default 10 MiB, as the MCP SDK). */
  readonly maxMessageBytes?: number;
}

/**
 * Newline-delimited JSON-RPC over two byte streams. `onproblem` is called
 * once for every line that is not a JSON-RPC message (not JSON, not JSON-RPC,
 * or over the size limit), with the JSON-RPC error to answer it with.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LineTransport } from "./line_transport.ts";
 * const input = new TransformStream<Uint8Array, Uint8Array>();
 * const output = new TransformStream<Uint8Array, Uint8Array>();
 * const transport = new LineTransport({ readable: input.readable, writable: output.writable });
 * const problems: number[] = [];
 * transport.onproblem = (problem) => problems.push(problem.code);
 * await transport.start();
 * const writer = input.writable.getWriter();
 * await writer.write(new TextEncoder().encode("{oops\n"));
 * await writer.close();
 * await transport.closed;
 * assert.deepEqual(problems, [-32700]);
 * ```
 */
export class LineTransport implements Transport {
  readonly #streams: LineStreams;
  #writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** The input ended or the transport was closed. */
  #closed = false;
  /** The transport was closed: nothing more is written. */
  #stopped = false;
  readonly #done: Promise<void>;
  #markDone!: () => void;
  readonly #encoder = new TextEncoder();
  /**
   * Called once, when the input ends or the transport is closed. The output
   * stays open until {@linkcode LineTransport.close}: answers to what the
   * other side sent before its input ended can still be written.
   */
  onclose?: () => void;
  /** Called on a stream error. */
  onerror?: (error: Error) => void;
  /** Called for every message read. */
  onmessage?: (message: JSONRPCMessage) => void;
  /** Called for every line that is not a message. */
  onproblem?: (problem: LineProblem) => void;

  /** A transport over `streams`; {@linkcode LineTransport.start} starts reading. */
  constructor(streams: LineStreams) {
    this.#streams = streams;
    this.#done = new Promise((resolve) => this.#markDone = resolve);
  }

  /** Resolves once the transport has closed. */
  get closed(): Promise<void> {
    return this.#done;
  }

  /** Start reading. */
  start(): Promise<void> {
    this.#writer = this.#streams.writable.getWriter();
    void this.#read();
    return Promise.resolve();
  }

  /**
   * Write one message as one line (also after the input ended, until the
   * transport is closed). Throws {@linkcode MessageTooLargeError}, writing
   * nothing, when the line with its newline is over the limit: the MCP SDK on
   * the other side would drop it unanswered (its buffer holds the limit,
   * newline included), and what pab writes can be longer than what it read
   * (an invalid UTF-8 byte is read as U+FFFD, three bytes).
   */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#writer || this.#stopped) throw new Error("the stream is closed");
    const line = this.#encoder.encode(`${JSON.stringify(message)}\n`);
    const max = this.#streams.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    if (line.length > max) throw new MessageTooLargeError(line.length, max);
    await this.#writer.write(line);
  }

  /** Stop reading, close the output, and call `onclose` (once). */
  async close(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#finish();
    await this.#reader?.cancel().catch(() => {});
    await this.#writer?.close().catch(() => {});
  }

  async #read(): Promise<void> {
    const lines = new LineSplitter(this.#streams.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, (read) => {
      try {
        if ("problem" in read) this.onproblem?.(read.problem);
        else this.onmessage?.(read.message as unknown as JSONRPCMessage);
      } catch (error) {
        // A handler that throws loses its message, never the stream.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    });
    try {
      this.#reader = this.#streams.readable.getReader();
      while (!this.#closed) {
        const { done, value } = await this.#reader.read();
        if (done) break;
        lines.push(value);
      }
      if (!this.#closed) lines.end();
    } catch (error) {
      if (!this.#closed) this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#markDone();
    this.onclose?.();
  }
}
