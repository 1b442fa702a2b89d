/**
 * The arithmetic a derived value may use: one change `u` applied to a base
 * `t` per step (`t + u`, `t - u`, `u - t`; for a count `u` from 2 to 12,
 * `t * u` and `t / u`; for a `u` written as a percentage, `u% of t`,
 * `t + u%`, `t - u%`), one step or two with two different changes. Each step is searched backwards from the value, so the
 * bases to look up are few (the exact one, and for a value in cents the
 * whole-cent bases whose result rounds to it), and every base found is
 * checked forwards.
 *
 * @module
 */

/** A number a step applies: its value, whether it was written as a percentage, and who stated it. */
export interface Change {
  /** The number. */
  readonly value: number;
  /** Whether it was written as a percentage (`19.5%`): only then may it scale a base. */
  readonly percent: boolean;
  /** The sources that stated it: `user`, or the designated sources it was delegated from. */
  readonly from: readonly string[];
}

/** A base and how the value follows from it. */
export interface Route {
  /** The base, as a number. */
  readonly base: number;
  /** How the value follows from the base, such as `(19.5% of 1000) + 5.29`; `#` stands for the base. */
  readonly formula: string;
  /** The changes used, in order. */
  readonly changes: readonly Change[];
}

/** A whole number from 2 to this one, not written as a percentage, is also a count that multiplies or divides. */
export const MAX_COUNT = 12;

/** Two steps are tried only when there are at most this many changes: `|U|(|U|-1)` ordered pairs, 36 step pairs each. */
export const TWO_STEP_CHANGES = 4;

/**
 * At most this many routes are returned, the nearest bases first (see `routes`): a value whose base lies past the cut
 * is not derived (asked about, the stricter answer).
 */
export const ROUTE_LIMIT = 512;

interface Step {
  readonly forward: (t: number) => number;
  readonly inverse: (w: number) => number;
  /** How far the base moves when the result moves by 1: a result rounded to cents leaves a window of bases. */
  readonly slope: number;
  readonly formula: (t: string, u: string) => string;
}

function stepsFor(change: Change): Step[] {
  const u = change.value;
  const steps: Step[] = [
    { forward: (t) => t + u, inverse: (w) => w - u, slope: 1, formula: (t, s) => `${t} + ${s}` },
    { forward: (t) => t - u, inverse: (w) => w + u, slope: 1, formula: (t, s) => `${t} - ${s}` },
    { forward: (t) => u - t, inverse: (w) => u - w, slope: 1, formula: (t, s) => `${s} - ${t}` },
  ];
  if (!change.percent && Number.isInteger(u) && u >= 2 && u <= MAX_COUNT) {
    // A count: "split it three ways", "twice the amount".
    steps.push({ forward: (t) => t * u, inverse: (w) => w / u, slope: 1 / u, formula: (t, s) => `${t} * ${s}` });
    steps.push({ forward: (t) => t / u, inverse: (w) => w * u, slope: u, formula: (t, s) => `${t} / ${s}` });
  }
  if (!change.percent || u <= 0) return steps;
  const scales: [number, (t: string, s: string) => string][] = [
    [u / 100, (t, s) => `${s}% of ${t}`],
    [1 + u / 100, (t, s) => `${t} + ${s}%`],
  ];
  if (u < 100) scales.push([1 - u / 100, (t, s) => `${t} - ${s}%`]);
  for (const [factor, formula] of scales) {
    steps.push({ forward: (t) => t * factor, inverse: (w) => w / factor, slope: 1 / factor, formula });
  }
  return steps;
}

/**
 * Every base from which `value` follows in one step by one of `changes`, or
 * (`twoSteps`, and at most {@linkcode TWO_STEP_CHANGES} changes) in two steps
 * by two different changes. A value with at most two decimals may be the
 * result rounded to cents: each route then has a window of whole-cent bases.
 * In a stable order: by distance from the exact base, then one-step routes
 * first; at most {@linkcode ROUTE_LIMIT}. Negative bases are left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { routes } from "./arithmetic_steps.ts";
 * const vat = { value: 19.5, percent: true, from: ["user"] };
 * const fee = { value: 5.29, percent: false, from: ["user"] };
 * assert.ok(routes(200.29, [vat, fee], true).some((r) => r.base === 1000 && r.formula === "(19.5% of #) + 5.29"));
 * assert.ok(!routes(200.29, [vat, fee], false).some((r) => r.base === 1000));
 * ```
 */
export function routes(value: number, changes: readonly Change[], twoSteps: boolean): Route[] {
  const cents = decimals(value) <= 2;
  const pending: Pending[] = [];
  for (const change of changes) {
    for (const step of stepsFor(change)) {
      pending.push(
        pend(
          step.inverse(value),
          step.slope,
          cents,
          [change],
          step.forward,
          () => step.formula("#", write(change.value)),
        ),
      );
    }
  }
  if (twoSteps && changes.length <= TWO_STEP_CHANGES) {
    for (const [j, second] of changes.entries()) {
      for (const outer of stepsFor(second)) {
        const middle = outer.inverse(value);
        for (const [i, first] of changes.entries()) {
          if (i === j) continue;
          for (const inner of stepsFor(first)) {
            pending.push(pend(
              inner.inverse(middle),
              inner.slope * outer.slope,
              cents,
              [first, second],
              (t) => outer.forward(inner.forward(t)),
              () => outer.formula(`(${inner.formula("#", write(first.value))})`, write(second.value)),
            ));
          }
        }
      }
    }
  }
  // The nearest bases of every route before the farther ones of any: a cut at the limit drops the least likely.
  const found: Route[] = [];
  const seen = new Set<string>();
  const farthest = Math.max(0, ...pending.map((item) => item.reach));
  for (let offset = 0; offset <= farthest; offset++) {
    for (const item of pending) {
      if (offset > item.reach) continue;
      const bases = offset === 0
        ? [item.exact, item.center / 100]
        : [(item.center - offset) / 100, (item.center + offset) / 100];
      for (const base of bases) {
        if (!(base >= 0) || !matches(item.check(base), value, cents)) continue;
        const formula = item.formula();
        const key = `${write(base)} ${formula}`;
        if (seen.has(key)) continue;
        seen.add(key);
        found.push({ base: Number(write(base)), formula, changes: item.changes });
        if (found.length >= ROUTE_LIMIT) return found;
      }
    }
  }
  return found;
}

/** A route before its bases are tried: the exact base, and the window of whole-cent bases around it. */
interface Pending {
  readonly exact: number;
  readonly center: number;
  readonly reach: number;
  readonly changes: readonly Change[];
  readonly check: (t: number) => number;
  readonly formula: () => string;
}

/** At most this many bases a result rounded to cents leaves are looked up (a percentage of 5% or more finds all). */
export const ROUNDING_WINDOW = 25;

/**
 * A route to try: the exact base, and with cents every whole-cent base whose result rounds to the value (half a cent
 * times the slope either side of the exact one), at most {@linkcode ROUNDING_WINDOW}. A base that is not a finite
 * number is tried nowhere.
 */
function pend(
  exact: number,
  slope: number,
  cents: boolean,
  changes: readonly Change[],
  check: (t: number) => number,
  formula: () => string,
): Pending {
  const finite = Number.isFinite(exact);
  // The nearest whole cent is at most half a cent from the exact base.
  const reach = !finite ? -1 : cents ? Math.min(Math.ceil(0.5 * slope + 0.5) - 1, Math.floor(ROUNDING_WINDOW / 2)) : 0;
  const center = cents && finite ? Math.round(exact * 100) : NaN;
  return { exact, center, reach, changes, check, formula };
}

/** Whether a computed result is the value: equal, or with cents, equal once rounded to cents. */
function matches(result: number, value: number, cents: boolean): boolean {
  if (Math.abs(result - value) < 1e-6) return true;
  // Half a cent either way, the half itself included: 1002.085 may be 1002.0849999 in floating point.
  return cents && Math.abs(result - value) <= 0.005 + 1e-9;
}

function decimals(value: number): number {
  const text = write(value);
  const dot = text.indexOf(".");
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** A number as its canonical writing: no trailing zeros, no float noise. */
export function write(number: number): string {
  return String(Number(number.toFixed(6)));
}
