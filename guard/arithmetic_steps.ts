/**
 * The arithmetic a derived value may use: one change `u` applied to a base
 * `t` per step (`t + u`, `t - u`, `u - t`, and for a `u` written as a
 * percentage `u% of t`, `t + u%`, `t - u%`), one step or two with two
 * different changes. Each step is searched backwards from the value, so the
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

/** At most this many changes are tried in two steps: `|U|(|U|-1)` ordered pairs, 36 step pairs each. */
export const TWO_STEP_CHANGES = 4;

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
 * (`twoSteps`) in two steps by two different changes of the first
 * {@linkcode TWO_STEP_CHANGES}, in a stable order: one-step routes first. A
 * value with at most two decimals may be the result rounded to cents.
 * Negative bases are left out.
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
  const found: Route[] = [];
  const seen = new Set<string>();
  const cents = decimals(value) <= 2;
  const add = (base: number, formula: string, used: readonly Change[], check: (t: number) => number) => {
    if (!(base >= 0) || !matches(check(base), value, cents)) return;
    const key = `${write(base)} ${formula}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push({ base: Number(write(base)), formula, changes: used });
  };
  for (const change of changes) {
    for (const step of stepsFor(change)) {
      for (const base of candidates(step.inverse(value), cents, step.slope)) {
        add(base, step.formula("#", write(change.value)), [change], step.forward);
      }
    }
  }
  if (!twoSteps) return found;
  const pairable = changes.slice(0, TWO_STEP_CHANGES);
  for (const [j, second] of pairable.entries()) {
    for (const outer of stepsFor(second)) {
      const middle = outer.inverse(value);
      for (const [i, first] of pairable.entries()) {
        if (i === j) continue;
        for (const inner of stepsFor(first)) {
          for (const base of candidates(inner.inverse(middle), cents, inner.slope * outer.slope)) {
            const formula = outer.formula(`(${inner.formula("#", write(first.value))})`, write(second.value));
            add(base, formula, [first, second], (t) => outer.forward(inner.forward(t)));
          }
        }
      }
    }
  }
  return found;
}

/** At most this many bases a result rounded to cents leaves are looked up (a percentage of 5% or more finds all). */
export const ROUNDING_WINDOW = 25;

/**
 * The bases worth looking up: the exact one, and with cents, every whole-cent base whose result rounds to the value
 * (half a cent times the slope either side), nearest first, at most {@linkcode ROUNDING_WINDOW}.
 */
function candidates(exact: number, cents: boolean, slope: number): number[] {
  if (!Number.isFinite(exact)) return [];
  if (!cents) return [exact];
  const found = [exact];
  const center = Math.round(exact * 100);
  const reach = Math.min(Math.ceil(0.005 * slope * 100), Math.floor(ROUNDING_WINDOW / 2));
  for (let offset = 0; offset <= reach; offset++) {
    for (const cent of offset ? [center - offset, center + offset] : [center]) {
      if (Math.abs(cent / 100 - exact) > 1e-9) found.push(cent / 100);
    }
  }
  return found;
}

/** Whether a computed result is the value: equal, or with cents, equal once rounded to cents. */
function matches(result: number, value: number, cents: boolean): boolean {
  if (Math.abs(result - value) < 1e-6) return true;
  return cents && Math.abs(Math.round(result * 100) / 100 - value) < 1e-6;
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
