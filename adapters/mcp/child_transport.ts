/**
 * An MCP client transport over a child process's stdin and stdout, started
 * with `Deno.Command`: the child inherits this process's environment (no
 * `--allow-env` needed, unlike the SDK's stdio transport, which reads it) and
 * writes its stderr straight to ours.
 *
 * @module
 */
import { deserializeMessage, serializeMessage } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/stdio.js";
import type { Transport } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/transport.js";
import type { JSONRPCMessage } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";

/**
 * Runs an MCP server as a child process and speaks newline-delimited JSON-RPC
 * to it. `onclose` fires once, when the child exits or is closed.
 *
 * @example
 * ```ts ignore
 * import { ChildTransport } from "./child_transport.ts";
 * const transport = new ChildTransport("npx", ["-y", "@modelcontextprotocol/server-memory"]);
 * await transport.start();
 * await transport.close();
 * ```
 */
export class ChildTransport implements Transport {
  readonly #command: string;
  readonly #args: readonly string[];
  #child: Deno.ChildProcess | undefined;
  #writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  #closed = false;
  /** Called when the child exits or the transport is closed. */
  onclose?: () => void;
  /** Called on a stream or parse error. */
  onerror?: (error: Error) => void;
  /** Called for every message the child writes. */
  onmessage?: (message: JSONRPCMessage) => void;

  /** A transport for `command args`; {@linkcode ChildTransport.start} starts it. */
  constructor(command: string, args: readonly string[] = []) {
    this.#command = command;
    this.#args = args;
  }

  /** Start the child. Throws if it cannot be started (not found, no `--allow-run`). */
  start(): Promise<void> {
    const child = new Deno.Command(this.#command, {
      args: [...this.#args],
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    void this.#read(child.stdout);
    child.status.then(() => this.#finish(), () => this.#finish());
    return Promise.resolve();
  }

  /** Write one message to the child. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#writer || this.#closed) throw new Error("the server is not running");
    await this.#writer.write(new TextEncoder().encode(serializeMessage(message)));
  }

  /** Close the child's stdin and stop it. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#writer?.close().catch(() => {});
    try {
      this.#child?.kill("SIGTERM");
    } catch {
      // It has already exited.
    }
    await this.#child?.status.catch(() => {});
    this.#finish();
  }

  async #read(stdout: ReadableStream<Uint8Array>): Promise<void> {
    let pending = "";
    try {
      for await (const chunk of stdout.pipeThrough(new TextDecoderStream())) {
        pending += chunk;
        let end: number;
        while ((end = pending.indexOf("\n")) >= 0) {
          const line = pending.slice(0, end).replace(/\r$/, "");
          pending = pending.slice(end + 1);
          if (!line.trim()) continue;
          try {
            this.onmessage?.(deserializeMessage(line));
          } catch (error) {
            this.onerror?.(error instanceof Error ? error : new Error(String(error)));
          }
        }
      }
    } catch (error) {
      if (!this.#closed) this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}
