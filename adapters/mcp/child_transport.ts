/**
 * An MCP client transport over a child process's stdin and stdout, started
 * with `Deno.Command`: the child inherits this process's environment (no
 * `--allow-env` needed, unlike the SDK's stdio transport, which reads it) and
 * writes its stderr straight to ours. The session ends when the child's
 * output ends (everything it wrote before it exited is read first) or when it
 * exited and its output stayed open for another second (a program it started
 * holds it).
 *
 * @module
 */
import type { Transport } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/transport.js";
import type { JSONRPCMessage } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import type { LineProblem } from "./json_rpc_lines.ts";
import { LineTransport } from "./line_transport.ts";

/** How long the output of a child that exited is still read, for what it wrote last. */
const EXITED_GRACE_MS = 1000;
/** How long a child has to exit after SIGTERM before it is killed. */
const TERM_GRACE_MS = 2000;

/**
 * Runs an MCP server as a child process and speaks newline-delimited JSON-RPC
 * to it (see {@linkcode LineTransport}). `onclose` fires once, when the child
 * exits or is closed.
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
  readonly #maxMessageBytes: number | undefined;
  #child: Deno.ChildProcess | undefined;
  #lines: LineTransport | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;
  /** Called when the child exits or the transport is closed. */
  onclose?: () => void;
  /** Called on a stream error. */
  onerror?: (error: Error) => void;
  /** Called for every message the child writes. */
  onmessage?: (message: JSONRPCMessage) => void;
  /** Called for every line the child writes that is not a message. */
  onproblem?: (problem: LineProblem) => void;

  /** A transport for `command args`; {@linkcode ChildTransport.start} starts it. */
  constructor(command: string, args: readonly string[] = [], options: { readonly maxMessageBytes?: number } = {}) {
    this.#command = command;
    this.#args = args;
    this.#maxMessageBytes = options.maxMessageBytes;
  }

  /** Start the child. Throws if it cannot be started (not found, no `--allow-run`). */
  async start(): Promise<void> {
    const child = new Deno.Command(this.#command, {
      args: [...this.#args],
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    this.#child = child;
    const lines = new LineTransport({
      readable: child.stdout,
      writable: child.stdin,
      ...(this.#maxMessageBytes ? { maxMessageBytes: this.#maxMessageBytes } : {}),
    });
    this.#lines = lines;
    lines.onmessage = (message) => this.onmessage?.(message);
    lines.onproblem = (problem) => this.onproblem?.(problem);
    lines.onerror = (error) => this.onerror?.(error);
    lines.onclose = () => this.#ended();
    await lines.start();
    child.status.then(() => this.#exited(lines), () => this.#exited(lines));
  }

  /** The child's output ended: nothing more can come from it, so the session ends (and a child still running is stopped). */
  #ended(): void {
    void this.close();
  }

  /** The child exited: what it wrote is read to the end, unless a program it started keeps the output open. */
  async #exited(lines: LineTransport): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => timer = setTimeout(resolve, EXITED_GRACE_MS));
    await Promise.race([lines.closed, grace]);
    clearTimeout(timer);
    void this.close();
  }

  /** Write one message to the child. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#lines || this.#closed) throw new Error("the server is not running");
    await this.#lines.send(message);
  }

  /** Close the child's stdin and stop it (SIGTERM, then SIGKILL if it has not exited within two seconds). */
  close(): Promise<void> {
    this.#closing ??= this.#stop();
    return this.#closing;
  }

  async #stop(): Promise<void> {
    await this.#lines?.close();
    const child = this.#child;
    if (child) {
      signal(child, "SIGTERM");
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<"late">((resolve) => timer = setTimeout(() => resolve("late"), TERM_GRACE_MS));
      if (await Promise.race([child.status.catch(() => {}), late]) === "late") signal(child, "SIGKILL");
      clearTimeout(timer);
      await child.status.catch(() => {});
    }
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}

function signal(child: Deno.ChildProcess, name: Deno.Signal): void {
  try {
    child.kill(name);
  } catch {
    // It has already exited.
  }
}
