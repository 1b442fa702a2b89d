/**
 * Values the model computed from a change the user stated: "raise the rent
 * by 100" (a sum), "pay what is left of 500" (a difference), "19.5% of what
 * we paid + a fee of 5.29" (two steps), "move it three days later" (a date
 * and an offset); and, in one step, from a quantity the user delegated to a
 * source they pointed at ("adjust my rent as the notice says").
 *
 * The changes must be in the user's own words (or delegated); the value they
 * apply to is an ordinary look-up, so the caller judges it like any argument
 * value. Nothing else is searched: a total of several values, or a difference
 * of two values that tools supplied, is not derived (see SECURITY.md, "Values
 * the model computed", for what each choice lets an attacker reach).
 *
 * @module
 */
import { type Trust, trustRank } from "../core/mod.ts";
import { canonicalEntity, type Entity, extractEntities } from "../harvest/mod.ts";
import { type Change, routes, write } from "./arithmetic_steps.ts";
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
  /** Who stated the changes: `user`, or the designated sources a change was delegated from. */
  readonly from: readonly string[];
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
 * assert.deepEqual(statedChanges("add 19.5% and 5.29"), { numbers: [19.5, 5.29], percents: [19.5] });
 * assert.deepEqual(statedChanges("add 19.5 percent").percents, [19.5]);
 * ```
 */
export function statedChanges(text: string, into: StatedChanges = { numbers: [] }): StatedChanges {
  const numbers = [...into.numbers];
  const percents = [...into.percents ?? []];
  for (const entity of extractEntities(withPercentSigns(text))) {
    const number = quantityOf(entity);
    if (number === undefined) continue;
    if (!numbers.includes(number) && numbers.length < STATED_LIMIT) numbers.push(number);
    if (entity.text.endsWith("%") && numbers.includes(number) && !percents.includes(number)) percents.push(number);
  }
  return percents.length ? { numbers, percents } : { numbers };
}

/**
 * Every way `value` follows from the changes the user stated, in a stable
 * order: for a number or an amount, one step (`t + u`, `t - u`, `u - t`; for
 * a count from 2 to 12 `t * u` and `t / u`; for a `u` the user wrote as a
 * percentage `u% of t`, `t + u%`, `t - u%`) or two steps with two different
 * changes (see `routes`); for an ISO date,
 * `t ± u` days or weeks. `delegated` changes (a quantity the user delegated to
 * a source they pointed at) are applied in one step only. The bases `t` are to
 * be looked up.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { derivations } from "./derived_value.ts";
 * const stated = { numbers: [100, 3] };
 * assert.deepEqual(derivations("1200", stated).slice(0, 2).map(({ base, formula }) => ({ base, formula })), [
 *   { base: "1100", formula: "1100 + 100" },
 *   { base: "1300", formula: "1300 - 100" },
 * ]);
 * assert.ok(derivations("2024-05-18", stated).some((d) => d.formula === "2024-05-15 + 3 days"));
 * assert.ok(derivations("200.29", { numbers: [19.5, 5.29], percents: [19.5] }).some((d) =>
 *   d.formula === "(19.5% of 1000) + 5.29"
 * ));
 * assert.deepEqual(derivations("alice@corp.example", stated), []);
 * ```
 */
export function derivations(value: string, stated: StatedChanges, delegated: readonly Change[] = []): Derivation[] {
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
          const formula = `${base} ${sign > 0 ? "+" : "-"} ${u} ${unit}${u === 1 ? "" : "s"}`;
          found.push({ base, formula, from: USER });
        }
      }
    }
    return found;
  }
  const entity = canonicalEntity(value);
  const number = quantityOf(entity);
  if (number === undefined) return found;
  const currency = entity?.type === "amount" ? `${entity.canonical.split(" ")[0].toUpperCase()} ` : "";
  const percents = new Set(stated.percents ?? []);
  const user = stated.numbers.map((u): Change => ({ value: u, percent: percents.has(u), from: USER }));
  const all = [...routes(number, user, true), ...routes(number, delegated, false)];
  for (const route of all) {
    const t = write(route.base);
    const from = [...new Set(route.changes.flatMap((change) => change.from))];
    found.push({ base: currency + t, formula: route.formula.replace("#", t), from });
  }
  return found;
}

const USER: readonly string[] = ["user"];

/**
 * `text` with "19.5 percent", "19.5 per cent" and "19.5 pct" written `19.5%`, so that the number reads as a percentage.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withPercentSigns } from "./derived_value.ts";
 * assert.equal(withPercentSigns("add 19.5 percent, then 5 Per Cent"), "add 19.5%, then 5%");
 * ```
 */
export function withPercentSigns(text: string): string {
  return text.replace(/(\d)\s*(?:per\s?cent|pct)\b/gi, "$1%");
}

/**
 * The number of a number or an amount entity (`usd 98.7` is 98.7); `undefined` for any other type, or for no
 * entity (pass `canonicalEntity(text)` to read a whole text).
 */
export function quantityOf(entity: Pick<Entity, "type" | "canonical"> | undefined): number | undefined {
  if (entity?.type !== "number" && entity?.type !== "amount") return undefined;
  const number = Number(entity.canonical.split(" ").at(-1));
  return Number.isFinite(number) ? number : undefined;
}

/** How an argument's value follows from a change the user stated and a base some source supplied. */
export interface DerivedArgument extends Derivation {
  /** The base's sources: vouching ones when `vouched`, else the weaker ones that contain it. */
  readonly sources: readonly Source[];
  /** Whether a source at least as trusted as the rule asks for contains the base. */
  readonly vouched: boolean;
}

/**
 * The first derivation of an argument value (see {@linkcode derivations})
 * whose base a source at least `require` trusted contains; else the first
 * whose base some weaker source contains. `delegated` are the changes the
 * user delegated to a source they pointed at (`delegatedChanges`). Arguments
 * that name an identifier ({@linkcode isIdentifierArgument}) get no arithmetic.
 */
export function derivedArgument(
  state: JudgeState,
  require: Trust,
  leaf: Leaf,
  delegated: readonly Change[] = [],
): DerivedArgument | undefined {
  if ((!state.stated?.numbers.length && !delegated.length) || isIdentifierArgument(leaf.path)) return undefined;
  let weaker: DerivedArgument | undefined;
  // Routes share bases (a window of cents around each): each base is looked up once.
  const looked = new Map<string, readonly Source[]>();
  for (const derivation of derivations(leaf.text, state.stated ?? { numbers: [] }, delegated)) {
    let sources = looked.get(derivation.base);
    if (!sources) looked.set(derivation.base, sources = state.evidence(derivation.base, require));
    const vouching = sources.filter((source) => trustRank(source.trust) >= trustRank(require));
    if (vouching.length) return { ...derivation, sources: vouching, vouched: true };
    if (sources.length) weaker ??= { ...derivation, sources, vouched: false };
  }
  return weaker;
}

/**
 * Whether an argument names an identifier (the last word of its name is `id`,
 * `ids`, `key`, `code`, `pin`, `password`, `number` or `no`): no arithmetic,
 * and no quantity delegated to a source, selects one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isIdentifierArgument } from "./derived_value.ts";
 * assert.equal(isIdentifierArgument("file_id"), true);
 * assert.equal(isIdentifierArgument("items[2].amount"), false);
 * ```
 */
export function isIdentifierArgument(path: string): boolean {
  return IDENTIFIER_WORDS.includes(nameWords(path.replace(/\[\d+\]/g, "")).at(-1) ?? "");
}

const IDENTIFIER_WORDS: readonly string[] = ["id", "ids", "key", "code", "pin", "password", "number", "no"];
