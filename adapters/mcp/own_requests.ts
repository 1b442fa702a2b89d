/**
 * The requests a relay sends on its own account (an elicitation to the
 * client, a relayed call or a tools/list to the server), waiting for their
 * responses. Each side has its own table, so a response is taken only from
 * the side its request went to; every id is 128 random bits, so neither side
 * can guess one or collide with one.
 *
 * @module
 */

/** The two sides of a relay. */
export type Side = "client" | "server";

/** A JSON-RPC response, as far as a waiting request reads it. */
export type Response = Record<string, unknown> & { readonly id?: unknown };

/**
 * Fresh request ids and the requests waiting on each side.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OwnRequests } from "./own_requests.ts";
 * const own = new OwnRequests((bytes) => crypto.getRandomValues(bytes));
 * const { id, response } = own.open("client");
 * assert.equal(own.take("server", { id, result: { action: "accept" } }), false); // the wrong side
 * assert.equal(own.take("client", { id, result: { action: "decline" } }), true);
 * assert.deepEqual((await response).result, { action: "decline" });
 * ```
 */
export class OwnRequests {
  readonly #random: (bytes: Uint8Array) => Uint8Array;
  readonly #waiting: Record<Side, Map<string, (response: Response) => void>> = {
    client: new Map(),
    server: new Map(),
  };

  /** Ids drawn from `random` (pass `crypto.getRandomValues`). */
  constructor(random: (bytes: Uint8Array) => Uint8Array) {
    this.#random = random;
  }

  /** A new id, unguessable: `pab-` and 32 hex digits of randomness. */
  newId(): string {
    const bytes = this.#random(new Uint8Array(16));
    return `pab-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
  }

  /**
   * Wait for the response to a request about to be sent to `side`, under a
   * new id (or `id`, from {@linkcode OwnRequests.newId}); with `deadline`,
   * a side silent for `deadline.ms` answers with `deadline.error`.
   */
  open(
    side: Side,
    id: string = this.newId(),
    deadline?: { readonly ms: number; readonly error: { readonly code: number; readonly message: string } },
  ): { readonly id: string; readonly response: Promise<Response> } {
    const response = new Promise<Response>((resolve) => this.#waiting[side].set(id, resolve));
    if (deadline) {
      const timer = setTimeout(() => this.take(side, { jsonrpc: "2.0", id, error: deadline.error }), deadline.ms);
      void response.then(() => clearTimeout(timer));
    }
    return { id, response };
  }

  /** Resolve the request `response` answers, if it is ours and went to `side`. Returns whether it was. */
  take(side: Side, response: Response): boolean {
    const id = response.id;
    if (typeof id !== "string") return false;
    const resolve = this.#waiting[side].get(id);
    if (!resolve) return false;
    this.#waiting[side].delete(id);
    resolve(response);
    return true;
  }

  /** Answer every request waiting on `side` with `error` (that side can no longer answer). */
  fail(side: Side, error: { readonly code: number; readonly message: string }): void {
    for (const [id, resolve] of this.#waiting[side]) resolve({ jsonrpc: "2.0", id, error });
    this.#waiting[side].clear();
  }

  /** Answer every waiting request with `error` (the relay is closing). */
  failAll(error: { readonly code: number; readonly message: string }): void {
    this.fail("client", error);
    this.fail("server", error);
  }
}
