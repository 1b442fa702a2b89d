/**
 * What the search for a computed value costs: `Guard.decide` for an amount no
 * input holds (so every route is tried and none is vouched), against a ledger
 * of 2,000 trusted amounts, with the user stating no number (the baseline), a
 * percentage and a fee, 32 numbers (one step only), and four small
 * percentages (the worst case: every route's rounding window is full, and the
 * search stops at `ROUTE_LIMIT` look-ups).
 *
 * Run with `deno task bench`.
 *
 * @module
 */
import { Guard, parsePolicy } from "../../mod.ts";

const POLICY = parsePolicy(`
version: 1
tools:
  ledger: { output: trusted, on_tainted: allow }
  pay:
    on_tainted: allow
    args:
      amount: { require: trusted, on_violation: confirm }
`);

const STATED: readonly [string, string][] = [
  ["no number stated", "Pay it please"],
  ["a percentage and a fee", "Send them 19.5% of the amount we paid + a fee of 5.29"],
  ["32 numbers stated", Array.from({ length: 32 }, (_, i) => `${i * 7 + 3}${i < 4 ? "%" : ""}`).join(" and ")],
  ["four small percentages", "Take 3%, then 4%, 5% or 6% off"],
];

for (const [name, user] of STATED) {
  const guard = new Guard(POLICY);
  guard.user(user);
  guard.record("ledger", Array.from({ length: 2000 }, (_, i) => ({ amount: 1000 + i * 13.37 })));
  let cents = 0;
  Deno.bench({
    name: `Guard.decide, an amount no input holds, ${name}`,
    group: "the search for a computed value",
    baseline: name === "no number stated",
    fn() {
      guard.decide("pay", { amount: 777777.77 + (cents++ % 100) / 100 });
    },
  });
}
