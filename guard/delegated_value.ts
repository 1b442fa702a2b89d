/**
 * Quantities the user delegated to a source they pointed at: "pay the bill in
 * 'bill-december-2023.txt'" (the amount is the bill's), "adjust my rent as
 * 'landlord-notices.txt' says" (the change is the notice's).
 *
 * A source the user designated (see `isDesignated`) that is below trusted
 * vouches for nothing; a value only it supplied is asked about. One case is
 * settled without a question: when, across every such source of the branch,
 * there is exactly one quantity (a number or an amount; numbers inside a date
 * or a time of day are read as the date), that quantity is what the user
 * delegated. An argument equal to it passes, and so does one step from a
 * vouched base by it (`1100 + 100`). Two different quantities compete, and the
 * call is asked about as before. Only quantities, and only for an argument
 * whose rule says `on_violation: confirm` and that names no identifier: a
 * party (an account, an address, a link) that such a source supplied is still
 * asked about, since a stranger who writes part of the file could make it
 * the only one (see SECURITY.md, "Values the model computed").
 *
 * @module
 */
import { canonicalEntity, extractEntities } from "../harvest/mod.ts";
import type { Change } from "./arithmetic_steps.ts";
import { isIdentifierArgument, quantityOf, withPercentSigns } from "./derived_value.ts";
import type { DelegatedQuantities, JudgeState } from "./judge_state.ts";
import type { ArgRule } from "./policy/mod.ts";
import { type Leaf, readLeaves } from "./read_leaves.ts";
import type { Source } from "./source.ts";

/** Distinct quantities kept: one is delegated, two already compete; a few more only make the message clearer. */
export const DELEGATED_LIMIT = 4;

const MONTH = "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|" +
  "oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
const DAY_OF_MONTH = "(?:[0-3]?\\d)(?:st|nd|rd|th)?";
/** Dates and times of day in the common writings: their numbers say when, not how much. */
const DATES = new RegExp(
  [
    "\\b\\d{4}-\\d{1,2}-\\d{1,2}(?:[T ]\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2})?)?",
    "\\b\\d{1,2}[/.]\\d{1,2}[/.]\\d{2,4}\\b",
    "\\b\\d{1,2}:\\d{2}(?::\\d{2})?(?:\\s?[ap]\\.?m\\b\\.?)?",
    `\\b(?:${DAY_OF_MONTH}\\s+)?${MONTH}(?:\\s+${DAY_OF_MONTH}\\b)?(?:,?\\s+\\d{4}\\b)?`,
  ].join("|"),
  "gi",
);

/**
 * The quantities in a designated source's texts, added to `into` (at most
 * {@linkcode DELEGATED_LIMIT} distinct ones), with the source's name.
 * `echoes` are the quantities of the call's own arguments ({@linkcode
 * argumentQuantities}): an output that repeats them (a ticket's id) delegates
 * nothing by them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { delegatedQuantities } from "./delegated_value.ts";
 * const bill = delegatedQuantities(["Bill for December 2023\nTotal 98.70\nDue 2024-01-15"], "tool:read_file");
 * assert.deepEqual(bill.values, [{ value: 98.7, percent: false }]);
 * assert.deepEqual(delegatedQuantities(["raise by 5%"], "tool:notes", bill).values.length, 2);
 * assert.deepEqual(delegatedQuantities(['{"id": 42, "refund": 19.99}'], "tool:read_ticket", undefined, [42]).values, [
 *   { value: 19.99, percent: false },
 * ]);
 * ```
 */
export function delegatedQuantities(
  texts: readonly string[],
  source: string,
  into: DelegatedQuantities = { values: [], sources: [] },
  echoes: readonly number[] = [],
): DelegatedQuantities {
  // Four already compete: nothing more changes what is delegated, so the text is not read again.
  if (into.values.length >= DELEGATED_LIMIT) return into;
  const values = [...into.values];
  let found = false;
  for (const text of texts) {
    for (const entity of extractEntities(withPercentSigns(text).replace(DATES, " "))) {
      const value = quantityOf(entity);
      if (value === undefined || echoes.includes(value)) continue;
      found = true;
      const percent = entity.type === "number" && entity.text.endsWith("%");
      const at = values.findIndex((item) => item.value === value);
      if (at >= 0) {
        if (percent && !values[at].percent) values[at] = { value, percent };
      } else if (values.length < DELEGATED_LIMIT) values.push({ value, percent });
    }
  }
  if (!found) return into;
  return { values, sources: into.sources.includes(source) ? into.sources : [...into.sources, source] };
}

/**
 * The quantities among a call's arguments (`{ticket_id: 42}` gives 42), at most a few dozen: what the call's output may
 * echo without delegating it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { argumentQuantities } from "./delegated_value.ts";
 * assert.deepEqual(argumentQuantities({ ticket_id: 42, file: "bill-2024.txt", n: "1,000" }), [42, 1000]);
 * ```
 */
export function argumentQuantities(args: Readonly<Record<string, unknown>>): number[] {
  const found: number[] = [];
  for (const leaf of readLeaves(args)) {
    const value = quantityOf(canonicalEntity(leaf.text));
    if (value !== undefined && !found.includes(value) && found.length < ECHOES_KEPT) found.push(value);
  }
  return found;
}

const ECHOES_KEPT = 32;

/** Whether this rule lets a delegated quantity settle a value that would otherwise be asked about. */
function delegates(state: JudgeState, rule: ArgRule, leaf: Leaf): boolean {
  return rule.onViolation === "confirm" && state.policy.default.confirmUntrustedFrom !== "any" &&
    state.delegated?.values.length === 1 && !isIdentifierArgument(leaf.path);
}

/**
 * Why a quantity that a designated source supplied was not delegated, as a
 * clause for its gap's message, when the reason is a competing quantity (the
 * sources the user pointed at hold several); `undefined` otherwise.
 */
export function competingQuantities(state: JudgeState, rule: ArgRule, leaf: Leaf): string | undefined {
  const values = state.delegated?.values ?? [];
  if (
    values.length < 2 || rule.onViolation !== "confirm" || state.policy.default.confirmUntrustedFrom === "any" ||
    isIdentifierArgument(leaf.path)
  ) return undefined;
  const value = quantityOf(canonicalEntity(leaf.text));
  if (value === undefined || !values.some((item) => item.value === value)) return undefined;
  const shown = values.map((item) => String(item.value)).join(", ") + (values.length >= DELEGATED_LIMIT ? ", ..." : "");
  return ` (not delegated: the sources the user pointed at hold more than one quantity: ${shown})`;
}

/**
 * The quantity the user delegated, as a change for one step of arithmetic
 * (see `derivations`): none unless the rule and the branch let it settle the
 * argument's value (see the module doc).
 */
export function delegatedChanges(state: JudgeState, rule: ArgRule, leaf: Leaf): Change[] {
  if (!delegates(state, rule, leaf)) return [];
  const [{ value, percent }] = state.delegated!.values;
  return [{ value, percent, from: state.delegated!.sources }];
}

/**
 * The designated sources that delegated an argument's value: it is a quantity
 * equal to the branch's only delegated quantity, and `sources` (its look-up)
 * holds a designated source below trusted. `undefined` otherwise.
 */
export function delegatedValue(
  state: JudgeState,
  rule: ArgRule,
  leaf: Leaf,
  sources: readonly Source[],
): Source[] | undefined {
  if (!delegates(state, rule, leaf)) return undefined;
  if (quantityOf(canonicalEntity(leaf.text)) !== state.delegated!.values[0].value) return undefined;
  const pointed = sources.filter((source) => source.designated === true && source.trust !== "trusted");
  return pointed.length ? pointed : undefined;
}
