/**
 * Values the model computed in one step from a change the user stated: "raise
 * the rent by 100" (a sum), "pay what is left of 500" (a difference), "move
 * it three days later" (a date and an offset).
 *
 * The change must be in the user's own words; the value it applies to is an
 * ordinary look-up, so the caller judges it like any argument value. Nothing
 * else is searched: a total of several values, or a difference of two values
 * that tools supplied, is not derived (see SECURITY.md, "Values the model
 * computed", for what each choice lets an attacker reach).
 *
 * @module
 */
import { type Trust, trustRank } from "../core/mod.ts";
import { canonicalEntity, extractEntities } from "../harvest/mod.ts";
import type { JudgeState, StatedChanges } from "./judge_state.ts";
import { nameWords } from "./name_words.ts";
import type { Leaf } from "./read_leaves.ts";
import type { Source } from "./source.ts";

/** A value read as a derivation: the base it was computed from, and how. */
export interface Derivation {
  /** The base value, written as the argument writes its value (`1100`, `USD 1100`, `2024-05-15 10:00`). */
  readonly base: string;
  /** How the argument's value follows from the base, such as `1100 + 100` or `2024-05-15 + 3 days`. */
  readonly formula: string;
}

/** At most this many stated numbers are kept: the user's words are short; a pasted table states no change. */
export const STATED_LIMIT = 32;

const DATE = /^(\d{4})-(\d{2})-(\d{2})((?:[ T]\d{2}:\d{2}(?::\d{2})?)?)$/;
const DAY = 86_400_000;

/**
 * The changes stated in one user message, added to `into`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statedChanges } from "./derived_value.ts";
 * assert.deepEqual(statedChanges("Raise the rent by $100, 3 days later", { numbers: [3] }), { numbers: [3, 100] });
 * ```
 */
export function statedChanges(text: string, into: StatedChanges = { numbers: [] }): StatedChanges {
  const numbers = [...into.numbers];
  for (const entity of extractEntities(text)) {
    const number = numberOf(entity.type, entity.canonical);
    if (number !== undefined && !numbers.includes(number) && numbers.length < STATED_LIMIT) numbers.push(number);
  }
  return { numbers };
}

/**
 * Every way `value` follows in one step from a stated change `u`, in a stable
 * order: `t + u`, `t - u` and `u - t` for a number or an amount, `t ± u` days
 * or weeks for an ISO date. The bases `t` are to be looked up.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { derivations } from "./derived_value.ts";
 * const stated = { numbers: [100, 3] };
 * assert.deepEqual(derivations("1200", stated).slice(0, 2), [
 *   { base: "1100", formula: "1100 + 100" },
 *   { base: "1300", formula: "1300 - 100" },
 * ]);
 * assert.ok(derivations("2024-05-18", stated).some((d) => d.formula === "2024-05-15 + 3 days"));
 * assert.deepEqual(derivations("alice@corp.example", stated), []);
 * ```
 */
export function derivations(value: string, stated: StatedChanges): Derivation[] {
  const found: Derivation[] = [];
  const date = DATE.exec(value.trim());
  if (date) {
    const [, year, month, day, time] = date;
    const at = Date.UTC(+year, +month - 1, +day);
    if (new Date(at).toISOString().slice(0, 10) !== `${year}-${month}-${day}`) return found;
    for (const u of stated.numbers) {
      if (!Number.isInteger(u) || u < 1 || u > 500) continue;
      for (const [days, unit] of [[u, "day"], [7 * u, "week"]] as const) {
        for (const sign of [1, -1]) {
          const base = new Date(at - sign * days * DAY).toISOString().slice(0, 10) + time;
          found.push({ base, formula: `${base} ${sign > 0 ? "+" : "-"} ${u} ${unit}${u === 1 ? "" : "s"}` });
        }
      }
    }
    return found;
  }
  const entity = canonicalEntity(value);
  const number = entity && numberOf(entity.type, entity.canonical);
  if (number === undefined) return found;
  const currency = entity?.type === "amount" ? `${entity.canonical.split(" ")[0].toUpperCase()} ` : "";
  for (const u of stated.numbers) {
    for (const [base, formula] of [[number - u, "# + u"], [number + u, "# - u"], [u - number, "u - #"]] as const) {
      if (base < 0) continue;
      const t = write(base);
      found.push({ base: currency + t, formula: formula.replace("#", t).replace("u", write(u)) });
    }
  }
  return found;
}

function numberOf(type: string, canonical: string): number | undefined {
  if (type !== "number" && type !== "amount") return undefined;
  const number = Number(canonical.split(" ").at(-1));
  return Number.isFinite(number) ? number : undefined;
}

/** A number as its canonical writing: no trailing zeros, no float noise. */
function write(number: number): string {
  return String(Number(number.toFixed(6)));
}

/** How an argument's value follows from a change the user stated and a base some source supplied. */
export interface DerivedArgument extends Derivation {
  /** The base's sources: vouching ones when `vouched`, else the weaker ones that contain it. */
  readonly sources: readonly Source[];
  /** Whether a source at least as trusted as the rule asks for contains the base. */
  readonly vouched: boolean;
}

/**
 * The first one-step derivation of an argument value from a change the user
 * stated whose base a source at least `require` trusted contains; else the
 * first whose base some weaker source contains. Arguments that name an
 * identifier (last word `id`, `ids`, `key`, `code`, `pin`, `password`,
 * `number`, `no`) get no arithmetic.
 */
export function derivedArgument(state: JudgeState, require: Trust, leaf: Leaf): DerivedArgument | undefined {
  if (
    !state.stated?.numbers.length ||
    IDENTIFIER_WORDS.includes(nameWords(leaf.path.replace(/\[\d+\]/g, "")).at(-1) ?? "")
  ) return undefined;
  let weaker: DerivedArgument | undefined;
  for (const derivation of derivations(leaf.text, state.stated)) {
    const sources = state.evidence(derivation.base, require);
    const vouching = sources.filter((source) => trustRank(source.trust) >= trustRank(require));
    if (vouching.length) return { ...derivation, sources: vouching, vouched: true };
    if (sources.length) weaker ??= { ...derivation, sources, vouched: false };
  }
  return weaker;
}

const IDENTIFIER_WORDS: readonly string[] = ["id", "ids", "key", "code", "pin", "password", "number", "no"];
