// Where a ledger's effects and holds sit in Deno KV, and what their rows hold.

/** An effect key as stored. */
export interface EffectEntry {
  /** Reserved by a call in flight, or committed for good. */
  readonly state: "reserved" | "committed";
  /** Who reserved or committed it. */
  readonly holder: string;
}

/** A hold: keys reserved by `holder` that no reservation record names yet. */
export interface HoldEntry {
  /** The reserved keys. */
  readonly keys: readonly string[];
  /** When (milliseconds since 1970, the writer's clock). */
  readonly at: number;
}

/** The key of an effect. */
export function effectKey(ledger: string, effect: string): Deno.KvKey {
  return ["pab", "fx", ledger, effect];
}

/** The key of a hold. */
export function holdKey(ledger: string, holder: string): Deno.KvKey {
  return ["pab", "hold", ledger, holder];
}
