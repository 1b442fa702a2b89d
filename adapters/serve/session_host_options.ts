/**
 * What a session host is given: its options, and calls as the API names them.
 *
 * @module
 */
import type { GuardOptions } from "../../guard/mod.ts";
import type { ServeLimits } from "./serve_limits.ts";
import type { SessionTally } from "./session_tally.ts";

/** A call as the API names it. */
export interface CallRequest {
  /** The tool. */
  readonly tool: string;
  /** Its arguments. */
  readonly args: Readonly<Record<string, unknown>>;
}

/** Options of a {@linkcode SessionHost}. */
export interface SessionHostOptions {
  /** How many sessions to keep in memory (the rest are rebuilt from the store on use; default 10,000, and at most `limits.memoryChars` of recorded text). */
  readonly cache?: number;
  /** The clock for audit times and idle expiry (default: the system clock). */
  readonly now?: () => Date;
  /** Bounds on sessions (see {@linkcode ServeLimits}; defaults in `DEFAULT_LIMITS`). */
  readonly limits?: Partial<ServeLimits>;
  /** The count the session cap is checked against (default: this host's own; see `sharedTally`). */
  readonly tally?: SessionTally;
  /** New session ids (default `s_` and 24 random hex digits); a worker thread makes ids routed to itself. */
  readonly sessionIds?: () => string;
  /** Further guard options for every session (casts, say); `effects` and `onEvent` are the host's. */
  readonly guard?: Omit<GuardOptions, "effects" | "onEvent" | "approvers">;
}
