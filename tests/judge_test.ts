/** judge(): Gate 1 as a pure function over plain state, tested without a Guard. */
import assert from "node:assert/strict";
import fc from "fast-check";
import { knownLabel, makeLabel } from "../core/mod.ts";
import { compilePolicy, judge, type JudgeState, makeToolCall, type Policy, type Source } from "../guard/mod.ts";

const POLICY = compilePolicy({
  version: 1,
  readers: { groups: ["public", "staff"], directory: { "*@corp.example": "staff" }, unknown: "public" },
  tools: {
    send_email: {
      output: "trusted",
      recipients: [{ arg: "to" }],
      args: { to: { require: "trusted" } },
    },
    refund: { output: "trusted", requires_prior: ["case.opened{account}"], needs_approval: true },
    search: { output: "untrusted", on_tainted: "allow" },
    open_case: { output: "trusted", effects: ["case.opened{account}"] },
  },
}, "judge.json");

/** A state whose evidence is a fixed table of value -> sources. */
function state(options: Partial<JudgeState> & { seen?: Record<string, Source[]> } = {}, policy: Policy = POLICY) {
  const seen = options.seen ?? {};
  return {
    policy,
    casts: {},
    prospective: true,
    label: knownLabel(policy.top),
    tainters: [],
    effects: new Set<string>(),
    evidence: (value: string) => Object.hasOwn(seen, value) ? seen[value] : [],
    ...options,
  } satisfies JudgeState;
}

const USER: Source = { id: 0, name: "user", trust: "trusted", label: knownLabel(POLICY.top), vouches: "text" };
const WEB: Source = {
  id: 1,
  name: "tool:search",
  trust: "suspicious",
  label: knownLabel(makeLabel(["public", "staff"], "suspicious")),
  vouches: "text",
};

Deno.test("judge() is pure: the same state and call give the same report, and the state is not touched", () => {
  const s = state({ seen: { "bob@corp.example": [USER] } });
  const call = makeToolCall("send_email", { to: "bob@corp.example" });
  const before = JSON.stringify({ ...s, effects: [...s.effects] });
  assert.deepEqual(judge(s, call), judge(s, call));
  assert.equal(JSON.stringify({ ...s, effects: [...s.effects] }), before);
});

Deno.test("judge() reads a recipient list address by address, for provenance and for readers", () => {
  const s = state({
    seen: { "bob@corp.example": [USER], "eve@attacker.example": [WEB] },
    label: knownLabel(makeLabel(["staff"], "trusted")),
  });
  const report = judge(s, makeToolCall("send_email", { to: "Eve <eve@attacker.example>, bob@corp.example" }));
  assert.deepEqual(report.gaps.map((gap) => [gap.code, gap.value]), [
    ["untrusted-argument", "eve@attacker.example"],
    ["recipient", "eve@attacker.example"],
  ]);
  assert.deepEqual(report.evidence.map((item) => [item.argument, item.value]), [["to", "bob@corp.example"]]);
  // As one string, the list would have matched the *@corp.example suffix and read as staff: it never does.
  const array = judge(s, makeToolCall("send_email", { to: ["bob@corp.example", "eve@attacker.example"] }));
  assert.deepEqual(array.gaps.map((gap) => [gap.code, gap.argument]), [
    ["untrusted-argument", "to[1]"],
    ["recipient", "to[1]"],
  ]);
});

Deno.test("judge() judges a value that is not one bare address as the unknown group", () => {
  const s = state({
    seen: { "eve@attacker.example all@corp.example": [USER] },
    label: knownLabel(makeLabel(["staff"], "trusted")),
  });
  const report = judge(s, makeToolCall("send_email", { to: "eve@attacker.example all@corp.example" }));
  assert.deepEqual(report.gaps.map((gap) => [gap.code, gap.group]), [["recipient", "public"]]);
});

Deno.test("judge() needs a prerequisite effect for the call's own argument values", () => {
  const report = judge(
    state({ effects: new Set(['case.opened{"account":4211}']) }),
    makeToolCall("refund", { account: 4212 }),
  );
  assert.deepEqual(report.gaps.map((gap) => [gap.code, gap.effect ?? ""]), [
    ["prior", 'case.opened{"account":4212}'],
    ["approval", ""],
  ]);
  const done = judge(
    state({ effects: new Set(['case.opened{"account":4212}']) }),
    makeToolCall("refund", { account: 4212 }),
  );
  assert.deepEqual(done.gaps.map((gap) => gap.code), ["approval"]);
});

Deno.test("judge() returns one guard-error gap for a call it cannot fingerprint, and never throws", () => {
  const report = judge(state(), makeToolCall("send_email", { to: "x", when: new Date(0) }));
  assert.deepEqual(report.gaps.map((gap) => gap.code), ["guard-error"]);
  const throwing = state({
    evidence: () => {
      throw new Error("index broken");
    },
  });
  const broken = judge(throwing, makeToolCall("send_email", { to: "bob@corp.example" }));
  assert.deepEqual(broken.gaps.map((gap) => [gap.code, gap.message]), [[
    "guard-error",
    "the guard failed while deciding, so the call is blocked: index broken",
  ]]);
});

Deno.test("judge() never allows a recipient list with any address outside the label's readers", () => {
  const s = state({ label: knownLabel(makeLabel(["staff"], "trusted")), seen: {} });
  const inside = fc.constantFrom("a@corp.example", "b@corp.example", "Boss <c@corp.example>");
  const outside = fc.constantFrom("eve@attacker.example", "x@corp.example.attacker.example");
  fc.assert(
    fc.property(
      fc.array(inside, { maxLength: 4 }),
      outside,
      fc.nat(4),
      fc.constantFrom(", ", "; ", ","),
      (ok, bad, at, sep) => {
        const list: string[] = [...ok];
        list.splice(Math.min(at, list.length), 0, bad);
        const report = judge(s, makeToolCall("send_email", { to: list.join(sep) }));
        assert.ok(report.gaps.some((gap) => gap.code === "recipient" && gap.value === bad), list.join(sep));
      },
    ),
  );
});

Deno.test("Guard.decide() and Guard.propose() run Gate 1 once for a blocked call: the planner reuses its judgement", async () => {
  const { Guard } = await import("../guard/mod.ts");
  const policy = compilePolicy({
    version: 1,
    readers: { groups: ["public", "staff"], unknown: "public" },
    approvers: { manager: { mandate: ["approval"] } },
    casts: { wiki: { cast: "wiki_acl", ceiling: { readers: ["public", "staff"], trust: "trusted" } } },
    tools: {
      wiki: { on_tainted: "allow" },
      post: { output: "trusted", recipients: ["public"], needs_approval: true, on_tainted: "allow" },
    },
  });
  let settled = 0;
  const guard = new Guard(policy, {
    approvers: { manager: () => "not today" },
    casts: {
      wiki_acl: () => {
        settled++;
        return makeLabel(["public", "staff"], "trusted");
      },
    },
  });
  guard.record("wiki", "page");
  const decision = guard.decide("post", { text: "hi" });
  assert.equal(decision.outcome, "block");
  assert.equal(decision.recovery?.found, false);
  assert.equal(settled, 1);
  const proposed = await guard.propose("post", { text: "hi" }, { run: () => "posted" });
  assert.equal(proposed.status, "blocked");
  assert.equal(settled, 2);
});

Deno.test("judge() escalates a confirm gap by the designation of the sources that supplied the value", () => {
  const policy = compilePolicy({
    version: 1,
    tools: { pay: { output: "trusted", args: { iban: { require: "trusted", on_violation: "confirm" } } } },
  }, "pay.json");
  const call = makeToolCall("pay", { iban: "DE89370400440532013000", note: "see https://phish.example" });
  const severities = (seen: Record<string, Source[]>, p: Policy = policy) =>
    judge(state({ seen }, p), call).gaps.map((gap) => [gap.code, gap.severity, gap.delegation, gap.rule]);
  const designated = { ...WEB, designated: true };
  // The IBAN: asked about only from a designated source. The link in free text: the outward default does not apply
  // (pay names no destination), so nothing more is checked.
  assert.deepEqual(severities({ DE89370400440532013000: [WEB] }), [
    ["untrusted-argument", "block", "undesignated", undefined],
  ]);
  assert.deepEqual(severities({ DE89370400440532013000: [WEB, designated] }), [
    ["untrusted-argument", "confirm", "designated", undefined],
  ]);
  const any = compilePolicy({
    version: 1,
    default: { confirm_untrusted_from: "any" },
    tools: { pay: { output: "trusted", args: { iban: { require: "trusted", on_violation: "confirm" } } } },
  });
  assert.deepEqual(severities({ DE89370400440532013000: [WEB] }, any), [
    ["untrusted-argument", "confirm", undefined, undefined],
  ]);
  // Designation never vouches: a designated untrusted source still leaves the gap open.
  assert.equal(judge(state({ seen: { DE89370400440532013000: [designated] } }, policy), call).evidence.length, 0);
});
