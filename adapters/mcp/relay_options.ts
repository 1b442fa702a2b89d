/**
 * What an `McpRelay` is made with: its options, and what decides and
 * records the calls it relays (a {@linkcode Proposer}).
 *
 * @module
 */
import type { Transport } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/transport.js";
import type { Label, Ledger } from "../../core/mod.ts";
import type { Guard, Policy } from "../../guard/mod.ts";
import type { ServerGuardOptions } from "./guard_for_server.ts";

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
  /**
   * The user's request, when the host knows it (`pab mcp --request`): recorded
   * as the user's words before the first call, so values the user gave vouch.
   */
  readonly request?: string;
  /**
   * Whether to ask the user, through elicitation, if values found in no input
   * pab saw came from them (default `true`; pab cannot see the user's messages).
   */
  readonly askValues?: boolean;
  /** Diagnostics (never written to the client's stream). */
  readonly log?: (line: string) => void;
  /**
   * How long pab waits for the server to answer a `tools/list` of its own
   * (default 60 s, the MCP SDK's request timeout); past it, the listing ends
   * with what came, so a server that never answers holds no call for ever.
   */
  readonly listTimeoutMs?: number;
  /** Random bytes for request ids (default `crypto.getRandomValues`). */
  readonly random?: (bytes: Uint8Array) => Uint8Array;
  /**
   * Makes what decides and records the calls, once the server's tools are
   * known (default: a guard in this process's memory, from `guardForServer`).
   * `pab mcp --store` passes a session kept in a store.
   */
  readonly proposer?: ProposerFactory;
}

/**
 * What decides, runs and records a call, as `Guard.propose` does; with `user`
 * and `record`, also what the user said and what the server showed the model
 * outside a call (its tool descriptions); with `ledger`, where the user's
 * refusals are noted.
 */
export interface Proposer extends Pick<Guard, "propose"> {
  /** Record a user message (trusted). */
  user?(text: string): void | Promise<void>;
  /** Record what a tool showed outside a call, under the tool's label. */
  record?(tool: string, output: unknown): void | Promise<void>;
  /** Where notes go. */
  readonly ledger?: Pick<Ledger, "record">;
}

/** Makes a {@linkcode Proposer} for a server, from its tools and signals (see `labelServerTools`). */
export type ProposerFactory = (server: Omit<ServerGuardOptions, "confirm">) => Promise<Proposer>;
