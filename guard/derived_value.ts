/**
 * Values the model computed in one step from a change the user stated: "raise
 * the rent by 100" (a sum), "pay what is left of 500" (a difference), "raise
 * it by 5%" (a percentage), "move it three days later" (a date and an offset).
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
import type { JudgeState } from "./judge_state.ts";
import { nameWords } from "./name_words.ts";
import type { Leaf } from "./read_leaves.ts";
import type { Source } from "./source.ts";

/** The changes a user stated: the numbers in their words, and which of them are percentages. */
export interface StatedChanges {
  /** Every number in the user's words (amounts' numbers too), at most {@linkcode STATED_LIMIT}. */
  readonly numbers: readonly number[];
  /** The numbers written as percentages (`5%`, `5 percent`). */
  readonly percents: readonly number[];
}

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
const PERCENT = /(\d+(?:[.,]\d+)?)\s*(?:%|percent\b|per cent\b)/gi;
const MAX_DAYS = 3660;

/**
 * The changes stated in one user message, added to `into` (up to {@linkcode STATED_LIMIT} numbers).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statedChanges } from "./derived_value.ts";
 * assert.deepEqual(statedChanges("Raise the rent by $100 and the fee by 5%"), { numbers: [100, 5], percents: [5] });
 * ```
 */
export function statedChanges(text: string, into: StatedChanges = { numbers: [], percents: [] }): StatedChanges {
  const numbers = [...into.numbers];
  const percents = [...into.percents];
  for (const entity of extractEntities(text)) {
    if (numbers.length >= STATED_LIMIT) break;
    const number = numberOf(entity.type, entity.canonical);
    if (number !== undefined && !numbers.includes(number)) numbers.push(number);
  }
  for (const match of text.matchAll(PERCENT)) {
    const percent = Number(match[1].replace(",", "."));
    if (numbers.includes(percent) && !percents.includes(percent)) percents.push(percent);
  }
  return { numbers, percents };
}

/**
 * Every way `value` follows in one step from a stated change, in a stable
 * order: the bases to look up (a base may itself be a number the user stated).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { derivations } from "./derived_value.ts";
 * const stated = { numbers: [100, 3], percents: [] };
 * assert.deepEqual(derivations("1200", stated).slice(0, 2), [
 *   { base: "1100", formula: "1100 + 100" },
 *   { base: "1300", formula: "1300 - 100" },
 * ]);
 * assert.ok(derivations("2024-05-18", stated).some((d) => d.formula === "2024-05-15 + 3 days"));
 * assert.deepEqual(derivations("alice@corp.example", stated), []);
 * ```
 */
export function derivations(value: string, stated: StatedChanges): Derivation[] {
  const date = DATE.exec(value.trim());
  if (date) return dateDerivations(date, stated.numbers);
  const entity = canonicalEntity(value);
  if (!entity) return [];
  const number = numberOf(entity.type, entity.canonical);
  if (number === undefined) return [];
  const currency = entity.type === "amount" ? `${entity.canonical.split(" ")[0].toUpperCase()} ` : "";
  const found: Derivation[] = [];
  const add = (base: number | undefined, formula: (base: string) => string) => {
    if (base === undefined || !Number.isFinite(base) || base < 0) return;
    const text = write(base);
    found.push({ base: currency + text, formula: formula(text) });
  };
  for (const change of stated.numbers) {
    add(number - change, (base) => `${base} + ${write(change)}`);
    add(number + change, (base) => `${base} - ${write(change)}`);
    add(change - number, (base) => `${write(change)} - ${base}`);
  }
  for (const percent of stated.percents) {
    add(exactBase(number, 1 + percent / 100), (base) => `${base} + ${write(percent)}%`);
    add(exactBase(number, 1 - percent / 100), (base) => `${base} - ${write(percent)}%`);
  }
  return found;
}

function dateDerivations(date: RegExpExecArray, numbers: readonly number[]): Derivation[] {
  const [, year, month, day, time] = date;
  const at = Date.UTC(Number(year), Number(month) - 1, Number(day));
  const check = new Date(at);
  if (check.getUTCMonth() !== Number(month) - 1 || check.getUTCDate() !== Number(day)) return [];
  const found: Derivation[] = [];
  for (const number of numbers) {
    if (!Number.isInteger(number) || number < 1) continue;
    for (const [days, unit] of [[number, "day"], [number * 7, "week"]] as const) {
      if (days > MAX_DAYS) continue;
      const plural = number === 1 ? unit : `${unit}s`;
      for (const sign of [1, -1]) {
        const base = new Date(at - sign * days * 86_400_000).toISOString().slice(0, 10) + time;
        found.push({ base, formula: `${base} ${sign > 0 ? "+" : "-"} ${number} ${plural}` });
      }
    }
  }
  return found;
}

function numberOf(type: string, canonical: string): number | undefined {
  if (type !== "number" && type !== "amount") return undefined;
  const number = Number(type === "amount" ? canonical.split(" ")[1] : canonical);
  return Number.isFinite(number) ? number : undefined;
}

/** The base that `factor` turns into `number` exactly to the cent, if there is one. */
function exactBase(number: number, factor: number): number | undefined {
  if (factor <= 0) return undefined;
  const base = Math.round((number / factor) * 100) / 100;
  return same(base * factor, number) ? base : undefined;
}

function same(a: number, b: number): boolean {
  return Math.abs(a - b) < 0.005;
}

/** A number as its canonical writing: no trailing zeros, no float noise. */
function write(number: number): string {
  return String(Number(number.toFixed(6)));
}

/** How an argument's value follows from a change the user stated and a base some source supplied. */
export interface DerivedArgument {
  /** How the value follows from the base, such as `1100 + 100`. */
  readonly formula: string;
  /** The base. */
  readonly base: string;
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
    !state.stated?.numbers.length || IDENTIFIER_WORDS.has(nameWords(leaf.path.replace(/\[\d+\]/g, "")).at(-1) ?? "")
  ) {
    return undefined;
  }
  let weaker: DerivedArgument | undefined;
  for (const { base, formula } of derivations(leaf.text, state.stated)) {
    const sources = state.evidence(base, require);
    const vouching = sources.filter((source) => trustRank(source.trust) >= trustRank(require));
    if (vouching.length) return { formula, base, sources: vouching, vouched: true };
    if (sources.length) weaker ??= { formula, base, sources, vouched: false };
  }
  return weaker;
}

const IDENTIFIER_WORDS: ReadonlySet<string> = new Set(["id", "ids", "key", "code", "pin", "password", "number", "no"]);
