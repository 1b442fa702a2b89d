/**
 * What the relay answers when a message fails: a line that is not a message
 * (answered to its sender, or, for a response, to whoever waits for it), and
 * a message that cannot be written to its side (too large for the receiver's
 * buffer once written, or a closed pipe). Whoever waits gets a JSON-RPC error
 * instead of waiting for ever.
 *
 * @module
 */
import { errorText } from "../../core/mod.ts";
import type { LineProblem } from "./json_rpc_lines.ts";
import { MessageTooLargeError } from "./line_transport.ts";
import type { OwnRequests, Side } from "./own_requests.ts";
import type { RequestId, WaitingRequests, WireError } from "./waiting_requests.ts";

type Message = Record<string, unknown>;

/** What the relay lends to answer faults. */
export interface FaultContext {
  /** pab's own requests, waiting per side. */
  readonly own: OwnRequests;
  /** The requests each side waits on. */
  readonly waiting: WaitingRequests;
  /** Write a message to one side. */
  send(to: Side, message: Message): Promise<void>;
  /** Write a diagnostic line. */
  log(line: string): void;
  /** A request of the client's to the server was answered by pab: forget what the relay noted for its result. */
  forget(id: RequestId): void;
  /** A request of the client's was answered: close the relay if the client has gone and waits for nothing more. */
  closeWhenAnswered(): void;
}

const other = (side: Side): Side => side === "client" ? "server" : "client";

/**
 * The request `id` that went (or was to go) to side `to` is answered with
 * `error` instead: pab's own request takes it as its response; a request
 * that passes from the other side is answered there. Returns whether anyone
 * waited for it.
 */
export function failRequest(context: FaultContext, to: Side, id: RequestId, error: WireError): boolean {
  const answer = { jsonrpc: "2.0", id, error };
  if (context.own.take(to, answer)) return true;
  if (to === "server") context.forget(id);
  if (!context.waiting.answered(other(to), id)) return false;
  void context.send(other(to), answer);
  context.closeWhenAnswered();
  return true;
}

/** A line that is not a message: answer the side that sent it (or whoever waits for the response it was), and say so once. */
export function answerProblem(context: FaultContext, from: Side, problem: LineProblem): void {
  const error = { code: problem.code, message: `pab mcp: ${problem.message}`, data: { kind: problem.kind } };
  let answered = `answered the ${from} with error ${problem.code}`;
  if (problem.id !== null && !problem.request) {
    // A response pab cannot read: whoever waits for it gets the error instead of waiting for ever.
    const message = `pab mcp: the ${from} answered with a line that is not a JSON-RPC message: ${problem.message}`;
    failRequest(context, from, problem.id, { ...error, message });
    answered = `answered the request it replied to with error ${problem.code}`;
  } else {
    void context.send(from, { jsonrpc: "2.0", id: problem.id, error });
  }
  context.log(
    `the ${from} sent a line that is not a JSON-RPC message (${problem.bytes} bytes): ${problem.message}; ${answered}`,
  );
}

/**
 * `message` could not be written to side `to`. A request's sender (pab, or
 * the other side) gets the error as its answer; a response too large to
 * write is replaced by an error under its id, so the side waiting for it
 * learns why; a notification is only logged.
 */
export function answerUndelivered(context: FaultContext, to: Side, message: Message, error: unknown): void {
  context.log(`cannot send to the ${to}: ${errorText(error)}`);
  const id = message.id;
  if (typeof id !== "string" && typeof id !== "number") return;
  const tooLarge = error instanceof MessageTooLargeError;
  const kind = tooLarge ? "oversize" : "undelivered";
  const code = tooLarge ? -32600 : -32000;
  if (typeof message.method === "string") {
    const why = `pab mcp: cannot send this request to the ${to}: ${errorText(error)}`;
    failRequest(context, to, id, { code, message: why, data: { kind } });
  } else if (tooLarge) {
    const why = `pab mcp: cannot send the answer to this request: ${errorText(error)}`;
    void context.send(to, { jsonrpc: "2.0", id, error: { code, message: why, data: { kind } } });
  }
}
