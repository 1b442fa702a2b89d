/**
 * The requests of each side that wait for an answer from the other, through
 * a relay: those that pass through (matched per direction, by id) and the
 * client's tool calls pab relays itself. A relay that ends answers every one
 * the client still waits on, so no request waits for ever.
 *
 * @module
 */
import { isRecord } from "../../core/mod.ts";
import type { Side } from "./own_requests.ts";

/** A request id on the wire. */
export type RequestId = string | number;

/** A JSON-RPC error, as pab answers with it. */
export interface WireError {
  /** The JSON-RPC code. */
  readonly code: number;
  /** What happened, for a person. */
  readonly message: string;
  /** What kind of error, for a program. */
  readonly data?: unknown;
}

/** A tool call pab relays itself: it can be answered with an error at once, and knows its id at the server. */
export interface OwnCall {
  /** The id the server knows the call by. */
  readonly serverId: string;
  /** Answer the client with `error`, unless it has its answer. */
  abandon(error: WireError): Promise<void>;
  /** The client cancelled it: it stops where it is, unanswered. */
  cancel(): void;
}

/**
 * Who waits for what. Ids are keyed by type and value (`1` and `"1"` differ),
 * each side's apart from the other's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { WaitingRequests } from "./waiting_requests.ts";
 * const waiting = new WaitingRequests();
 * waiting.pass("client", 1);
 * assert.equal(waiting.answered("server", 1), false); // the server sent no request 1
 * assert.equal(waiting.answered("client", "1"), false); // another id
 * assert.equal(waiting.answered("client", 1), true);
 * assert.equal(waiting.clientWaits, 0);
 * ```
 */
export class WaitingRequests {
  readonly #passing: Record<Side, Map<string, RequestId>> = { client: new Map(), server: new Map() };
  readonly #calls = new Map<string, OwnCall>();

  /** A request `from` one side passes to the other. */
  pass(from: Side, id: RequestId): void {
    this.#passing[from].set(key(id), id);
  }

  /** A response to a request of `side` arrived: whether that side waited for it (it waits no more). */
  answered(side: Side, id: RequestId): boolean {
    return this.#passing[side].delete(key(id));
  }

  /** Whether `side` already waits under `id` (a new request under it could not be told apart). */
  has(side: Side, id: RequestId): boolean {
    return this.#passing[side].has(key(id)) || (side === "client" && this.#calls.has(key(id)));
  }

  /** A tool call of the client that pab relays itself. */
  addCall(id: RequestId, call: OwnCall): void {
    this.#calls.set(key(id), call);
  }

  /** The call under `id` has its answer. */
  endCall(id: RequestId, call: OwnCall): void {
    if (this.#calls.get(key(id)) === call) this.#calls.delete(key(id));
  }

  /** `side` cancelled its request `id`: it waits no more; a tool call of the client is returned to be stopped. */
  withdraw(side: Side, id: RequestId | undefined): OwnCall | undefined {
    if (id === undefined) return undefined;
    this.#passing[side].delete(key(id));
    if (side === "server") return undefined;
    const call = this.#calls.get(key(id));
    this.#calls.delete(key(id));
    return call;
  }

  /** How many requests of the client wait for an answer. */
  get clientWaits(): number {
    return this.#calls.size + this.#passing.client.size;
  }

  /** Answer every request the client waits on with `error` (through `send`); returns how many there were. */
  abandonClient(error: WireError, send: (id: RequestId, error: WireError) => void): number {
    const count = this.clientWaits;
    for (const call of this.#calls.values()) void call.abandon(error);
    for (const id of this.#passing.client.values()) send(id, error);
    this.#calls.clear();
    this.#passing.client.clear();
    return count;
  }
}

/** The request a `notifications/cancelled` names (its `params.requestId`), if it names one. */
export function cancelledId(params: unknown): RequestId | undefined {
  const id = isRecord(params) ? params.requestId : undefined;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

/** A request id as a map key: its type and value. */
export function key(id: RequestId): string {
  return `${typeof id}:${id}`;
}
