/**
 * The sessions a host keeps alive, least recently used first: how many there
 * are (a cap), when each was last used (idle expiry), which of them sit in
 * memory with their guard (a budget of recorded text), and which ids were
 * deleted or expired (refused from then on in this process).
 *
 * @module
 */
import type { HostedSession } from "./hosted_session.ts";
import type { ServeLimits } from "./serve_limits.ts";
import { localTally, type SessionTally } from "./session_tally.ts";

/** How many deleted or expired ids are remembered (older ones are looked up in the store again). */
const REMEMBERED_ENDS = 100_000;

/**
 * Live sessions by id, in order of last use.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LiveSessions } from "./live_sessions.ts";
 * import { serveLimits } from "./serve_limits.ts";
 * let now = 0;
 * const live = new LiveSessions(serveLimits({ idleSeconds: 10 }), () => now);
 * live.touch("s_1");
 * now = 11_000;
 * assert.deepEqual(live.expired(), ["s_1"]);
 * ```
 */
export class LiveSessions {
  readonly #limits: ServeLimits;
  readonly #now: () => number;
  readonly #maxHeld: number;
  /** Last use (ms) by id; a Map keeps insertion order, and a use re-inserts: the first entries are the oldest. */
  readonly #used = new Map<string, number>();
  /** Sessions held in memory with their guard, in order of last use. */
  readonly #held = new Map<string, HostedSession>();
  readonly #ended = new Map<string, "deleted" | "expired">();
  /** Sessions bound to an API credential: those end when idle; others (a hook's) only leave memory. */
  readonly #bound = new Set<string>();
  /** The live sessions the cap counts: these, or these and other threads' (see `sharedTally`). */
  readonly #tally: SessionTally;
  #chars = 0;

  /**
   * Track sessions under `limits`, on the clock `now` (milliseconds), holding at most `maxHeld` in memory, counted
   * against the cap in `tally` (default: this object's alone).
   */
  constructor(limits: ServeLimits, now: () => number, maxHeld = 1000, tally: SessionTally = localTally()) {
    this.#limits = limits;
    this.#now = now;
    this.#maxHeld = maxHeld;
    this.#tally = tally;
  }

  /** How many sessions are alive here. */
  get size(): number {
    return this.#used.size;
  }

  /** Whether one more session may be made (after expiring the idle ones). */
  hasRoom(): boolean {
    return this.#tally.count < this.#limits.maxSessions;
  }

  /** Take a place under the cap for a session about to be made (give it to `touch`, or back with `unclaim`). */
  claim(): boolean {
    return this.#tally.claim(this.#limits.maxSessions);
  }

  /** Give back a place `claim` took for a session that was not made. */
  unclaim(): void {
    this.#tally.add(-1);
  }

  /** Why a session id may not be used any more, if it was deleted or expired here. */
  ended(id: string): "deleted" | "expired" | undefined {
    return this.#ended.get(id);
  }

  /**
   * Mark a session used now; `bound` says it was made through the API with a credential, `claimed` that `claim`
   * took its place under the cap.
   */
  touch(id: string, bound?: boolean, claimed = false): void {
    if (bound) this.#bound.add(id);
    const known = this.#used.delete(id);
    if (known === claimed) this.#tally.add(known ? -1 : 1);
    this.#used.set(id, this.#now());
    const held = this.#held.get(id);
    if (held) {
      this.#held.delete(id);
      this.#held.set(id, held);
    }
  }

  /** The session held in memory, if any. */
  held(id: string): HostedSession | undefined {
    return this.#held.get(id);
  }

  /** Hold a session in memory; idle ones leave memory (oldest first) while the budget is exceeded. */
  hold(session: HostedSession): void {
    const id = session.record.id;
    const before = this.#held.get(id);
    if (before) this.#chars -= before.chars;
    this.#held.set(id, session);
    this.#chars += session.chars;
    this.#trim(id);
  }

  /** A held session's recorded text grew by `chars`. */
  grew(session: HostedSession, chars: number): void {
    if (this.#held.get(session.record.id) !== session) return;
    this.#chars += chars;
    this.#trim(session.record.id);
  }

  /** Let a session leave memory (it is rebuilt from the store on its next use). */
  drop(id: string, session?: HostedSession): void {
    const held = this.#held.get(id);
    if (!held || (session && held !== session)) return;
    this.#held.delete(id);
    this.#chars -= held.chars;
  }

  /** Whether an idle session ends (made through the API) or only leaves memory (made by a hook, say). */
  bound(id: string): boolean {
    return this.#bound.has(id);
  }

  /** Stop tracking a session (it leaves memory; its next use brings it back from the store). */
  forget(id: string): void {
    this.drop(id);
    if (this.#used.delete(id)) this.#tally.add(-1);
    this.#bound.delete(id);
  }

  /** End a session here: it leaves memory and later uses are refused as `why`. */
  end(id: string, why: "deleted" | "expired"): void {
    this.forget(id);
    this.#ended.set(id, why);
    if (this.#ended.size > REMEMBERED_ENDS) this.#ended.delete(this.#ended.keys().next().value as string);
  }

  /** The ids idle for longer than the limit, oldest first (not ended yet: the caller ends them). */
  expired(): string[] {
    const cutoff = this.#now() - this.#limits.idleSeconds * 1000;
    const out: string[] = [];
    for (const [id, used] of this.#used) {
      if (used > cutoff) break;
      if (this.#held.get(id)?.busy) continue;
      out.push(id);
    }
    return out;
  }

  #trim(keep: string): void {
    for (const [id, session] of this.#held) {
      if (this.#chars <= this.#limits.memoryChars && this.#held.size <= this.#maxHeld) return;
      if (id === keep || session.busy) continue;
      this.drop(id);
    }
  }
}
