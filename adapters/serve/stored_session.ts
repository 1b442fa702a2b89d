/**
 * One session in a store, used the way a `Guard` is (`propose` with a `run`),
 * for agents that run in one process but keep their state in a store
 * (`pab mcp --store`): its sources, ledger effects and reservations, rulings
 * and audit chain live in the store, so a restart keeps them and processes
 * sharing the store share its `once` effects.
 *
 * @module
 */
import { errorText } from "../../core/mod.ts";
import {
  type Guard,
  type GuardOptions,
  isLabelled,
  type Policy,
  type ProposeOptions,
  type ProposeResult,
} from "../../guard/mod.ts";
import type { PabStore } from "../store/mod.ts";
import { RequestError } from "./request_error.ts";
import { SessionHost } from "./session_host.ts";

/**
 * Proposes calls the way `Guard.propose` does, in a stored session: reserve
 * (in the store), run, then commit the output or the error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { openStore } from "../store/mod.ts";
 * import { StoredSession } from "./stored_session.ts";
 * const policy = parsePolicy("version: 1\ntools:\n  publish: {once: release.sent, output: trusted}\n");
 * const store = await openStore(":memory:");
 * const first = await StoredSession.open(policy, store, "mcp");
 * assert.equal((await first.propose("publish", {}, { run: () => "ok" })).status, "done");
 * const second = await StoredSession.open(policy, store, "mcp");
 * assert.equal((await second.propose("publish", {}, { run: () => "again" })).status, "blocked");
 * store.close();
 * ```
 */
export class StoredSession implements Pick<Guard, "propose"> {
  readonly #host: SessionHost;
  readonly #session: string;

  private constructor(host: SessionHost, session: string) {
    this.#host = host;
    this.#session = session;
  }

  /** Open session `session` in `store` (made if missing), with further guard options such as casts. */
  static async open(
    policy: Policy,
    store: PabStore,
    session: string,
    guard: Omit<GuardOptions, "effects" | "onEvent" | "approvers"> = {},
  ): Promise<StoredSession> {
    const host = new SessionHost(policy, store, { guard });
    if (!(await host.has(session))) {
      await host.create({ id: session }).catch((error) => {
        // Another proxy on the same store made it first.
        if (!(error instanceof RequestError && error.code === "ERR_SESSION_EXISTS")) throw error;
      });
    }
    return new StoredSession(host, session);
  }

  /** Record a user message (trusted), as `Guard.user` does. */
  async user(text: string): Promise<void> {
    await this.#host.message(this.#session, "user", text);
  }

  /** Record what a tool showed outside a call under the tool's label, as `Guard.record` does. */
  async record(tool: string, output: unknown): Promise<void> {
    await this.#host.result(this.#session, { tool, args: {}, output });
  }

  /** Reserve the call in the store, run it, and commit its output (or its error, which is thrown on). */
  async propose(
    tool: string,
    args: Readonly<Record<string, unknown>>,
    options: ProposeOptions = {},
  ): Promise<ProposeResult> {
    const { run, confirm } = options;
    if (!run) throw new TypeError(`Cannot run ${tool}: pass options.run`);
    const reserved = await this.#host.propose(this.#session, {
      tool,
      args,
      accept: options.accept === true,
      ...(confirm ? { confirm } : {}),
    });
    if (reserved.status !== "reserved") return reserved;
    const reservation = reserved.reservation.id;
    let value: unknown;
    try {
      // Exactly the arguments the guard decided on.
      value = await run(structuredClone(reserved.decision.args) as Record<string, unknown>);
    } catch (error) {
      await this.#host.commit(this.#session, { reservation, error: errorText(error) });
      throw error;
    }
    const labelled = isLabelled(value) ? value : undefined;
    if (labelled) value = labelled.value;
    await this.#host.commit(this.#session, {
      reservation,
      output: value,
      ...(labelled ? { label: labelled.label } : {}),
    });
    return { status: "done", value, decision: reserved.decision };
  }
}
