/** planRecovery(): the planner over plain state, tested without a Guard. */
import assert from "node:assert/strict";
import fc from "fast-check";
import { knownLabel, makeLabel } from "../core/mod.ts";
import {
  compilePolicy,
  judge,
  type JudgeState,
  makeToolCall,
  type PlannerApprover,
  planRecovery,
  type Policy,
} from "../guard/mod.ts";

function state(policy: Policy, options: Partial<JudgeState> = {}): JudgeState {
  return {
    policy,
    casts: {},
    prospective: true,
    label: knownLabel(policy.top),
    tainters: [],
    effects: new Set(),
    evidence: () => [],
    ...options,
  };
}

const yes = () => true;

Deno.test("planRecovery() picks the fewest rulings, named approvers before the user", () => {
  const policy = compilePolicy({
    version: 1,
    approvers: {
      a: { mandate: ["approval"] },
      b: { mandate: ["tainted-context"] },
      c: { mandate: ["approval", "tainted-context"] },
    },
    tools: { pay: { output: "trusted", needs_approval: true, on_tainted: "confirm" } },
  });
  const approvers: Record<string, PlannerApprover> = {
    a: { mandate: ["approval"], rule: yes },
    b: { mandate: ["tainted-context"], rule: yes },
    c: { mandate: ["approval", "tainted-context"], rule: yes },
  };
  const s = state(policy, { tainters: ["tool:web"] });
  const call = makeToolCall("pay", { amount: 5 });
  assert.deepEqual(planRecovery({ state: s, approvers, branch: "main", depth: 3 }, call), {
    found: true,
    steps: [{ kind: "ruling", approver: "c", covers: ["tainted-context", "approval"] }],
  });
  const noC = { a: approvers.a, b: approvers.b };
  assert.deepEqual(planRecovery({ state: s, approvers: noC, branch: "main", depth: 3 }, call), {
    found: true,
    steps: [
      { kind: "ruling", approver: "a", covers: ["approval"] },
      { kind: "ruling", approver: "b", covers: ["tainted-context"] },
    ],
  });
  const onlyA = { a: approvers.a };
  assert.deepEqual(planRecovery({ state: s, approvers: onlyA, branch: "main", depth: 3 }, call), {
    found: true,
    steps: [
      { kind: "ruling", approver: "a", covers: ["approval"] },
      { kind: "ruling", approver: "user", covers: ["tainted-context"] },
    ],
  });
});

Deno.test("planRecovery() runs a prerequisite for the blocked call's own argument values", () => {
  const policy = compilePolicy({
    version: 1,
    tools: {
      preclear: {
        output: "trusted",
        effects: ["legal.precleared{client}"],
        prerequisite: { args: { client: "{{client}}" } },
      },
      send_terms: { output: "trusted", requires_prior: ["legal.precleared{client}"] },
    },
  });
  const call = makeToolCall("send_terms", { client: 4211 });
  assert.deepEqual(planRecovery({ state: state(policy), approvers: {}, branch: "main", depth: 3 }, call), {
    found: true,
    steps: [{ kind: "run", tool: "preclear", args: { client: 4211 }, writes: ['legal.precleared{"client":4211}'] }],
  });
  const other = state(policy, { effects: new Set(['legal.precleared{"client":9}']) });
  assert.equal(planRecovery({ state: other, approvers: {}, branch: "main", depth: 0 }, call).found, false);
});

Deno.test("planRecovery() says why no route exists, from the gap kinds table and the approvers' refusals", () => {
  const policy = compilePolicy({
    version: 1,
    readers: { groups: ["public", "staff"], unknown: "public" },
    approvers: { press: { mandate: ["recipient"] } },
    tools: { post: { output: "trusted", recipients: ["public"], on_tainted: "allow" } },
  });
  const s = state(policy, { label: knownLabel(makeLabel(["staff"], "trusted")) });
  const recovery = planRecovery(
    {
      state: s,
      approvers: { press: { mandate: ["recipient"], rule: () => "not before the embargo" } },
      branch: "main",
      depth: 3,
    },
    makeToolCall("post", {}),
  );
  assert.deepEqual(recovery, {
    found: false,
    reason:
      '[recipient] approver "press" refuses (not before the embargo); reading more can only make the label stricter',
  });
});

Deno.test("planRecovery() reuses the judgement it is given and never asks for a guard-error waiver", () => {
  const policy = compilePolicy({ version: 1, tools: { pay: { output: "trusted", needs_approval: true } } });
  const s = state(policy);
  const call = makeToolCall("pay", { when: new Date(0) });
  const first = judge(s, call);
  assert.deepEqual(first.gaps.map((gap) => gap.code), ["guard-error"]);
  const approvers = { any: { mandate: ["approval" as const], rule: yes } };
  assert.deepEqual(planRecovery({ state: s, approvers, branch: "main", depth: 3 }, call, first), {
    found: false,
    reason: "the guard failed while deciding; no ruling can waive that",
  });
});

Deno.test("planRecovery() with twelve approvers and no route asks each rule a bounded number of times", () => {
  const policy = compilePolicy({
    version: 1,
    tools: { pay: { output: "trusted", needs_approval: true, on_tainted: "block" } },
  });
  let asked = 0;
  const approvers: Record<string, PlannerApprover> = {};
  for (let i = 0; i < 12; i++) {
    approvers[`a${i}`] = {
      mandate: ["approval"],
      rule: () => {
        asked++;
        return true;
      },
    };
  }
  const recovery = planRecovery({
    state: state(policy, { tainters: ["tool:web"] }),
    approvers,
    branch: "main",
    depth: 3,
  }, makeToolCall("pay", {}));
  assert.equal(recovery.found, false);
  assert.ok(asked <= 24, `asked ${asked} times`);
});

/** The planner's definition: breadth first over prerequisite runs, each judged afresh in each state it is tried from. */
function referenceRuns(policy: Policy, start: JudgeState, call: ReturnType<typeof makeToolCall>, depth: number) {
  const key = (s: JudgeState) => JSON.stringify([s.label, [...s.effects].sort()]);
  const queue: Array<{ state: JudgeState; runs: string[] }> = [{ state: start, runs: [] }];
  const seen = new Set([key(start)]);
  for (let head = 0; head < queue.length; head++) {
    const { state: now, runs } = queue[head];
    const gaps = judge(now, call).gaps;
    // With no approvers, the user's confirmation is the only ruling: it covers confirm gaps.
    if (gaps.every((gap) => gap.severity === "confirm")) return runs;
    if (runs.length >= depth) continue;
    const missing = new Set(gaps.filter((gap) => gap.code === "prior").map((gap) => gap.effect));
    for (const [name, spec] of Object.entries(policy.tools)) {
      if (!spec.prerequisite) continue;
      const writes = spec.effects;
      if (!writes.some((effect) => missing.has(effect))) continue;
      const judged = judge(now, makeToolCall(name, {}));
      if (judged.gaps.length) continue;
      const next = { ...now, label: judged.future, effects: new Set([...now.effects, ...writes]) };
      if (seen.has(key(next))) continue;
      seen.add(key(next));
      queue.push({ state: next, runs: [...runs, name] });
    }
  }
  return undefined;
}

Deno.test("planRecovery() with remembered look-ups and runs plans exactly the runs the breadth-first definition finds", () => {
  const toolArb = fc.record({
    writes: fc.subarray(["a", "b", "c", "d"], { minLength: 1 }),
    reads: fc.constantFrom("trusted", "untrusted", "hr"),
    blocked: fc.boolean(),
  });
  fc.assert(fc.property(fc.array(toolArb, { maxLength: 8 }), fc.subarray(["a", "b", "c", "d"]), (preps, wanted) => {
    const needs = wanted.filter((effect) => preps.some((prep) => prep.writes.includes(effect)));
    const tools: Record<string, unknown> = {
      target: { output: "trusted", requires_prior: needs, recipients: ["staff"], on_tainted: "allow" },
    };
    preps.forEach((prep, i) => {
      tools[`prep_${i}`] = {
        output: prep.reads === "hr" ? { readers: ["hr"], trust: "trusted" } : prep.reads,
        effects: prep.writes,
        on_tainted: prep.blocked ? "block" : "allow",
        prerequisite: { args: {} },
      };
    });
    const policy = compilePolicy({ version: 1, readers: { groups: ["staff", "hr"], unknown: "staff" }, tools });
    const start = state(policy, { tainters: ["tool:web"] });
    const call = makeToolCall("target", {});
    const expected = referenceRuns(policy, start, call, 3);
    for (let again = 0; again < 2; again++) {
      const recovery = planRecovery({ state: start, approvers: {}, branch: "main", depth: 3 }, call);
      assert.equal(recovery.found, expected !== undefined);
      if (!recovery.found) continue;
      assert.deepEqual(recovery.steps.filter((step) => step.kind === "run").map((step) => step.tool), expected);
    }
  }));
});

Deno.test("planRecovery() with no approvers asks the user exactly when every gap is of confirm severity", () => {
  const policy = compilePolicy({ version: 1, tools: { pay: { output: "trusted" } } });
  const codes = ["untrusted-argument", "invented-argument", "not-allowed", "recipient", "trust", "approval"] as const;
  const gapArb = fc.record({
    code: fc.constantFrom(...codes),
    severity: fc.constantFrom("confirm", "block") as fc.Arbitrary<"confirm" | "block">,
  });
  fc.assert(fc.property(fc.array(gapArb, { minLength: 1, maxLength: 5 }), (drawn) => {
    const gaps = drawn.map((gap, i) => ({ ...gap, message: `gap ${i}` }));
    const first = { future: knownLabel(policy.top), gaps, notes: [], evidence: [] };
    const recovery = planRecovery(
      { state: state(policy), approvers: {}, branch: "main", depth: 3 },
      makeToolCall("pay", {}),
      first,
    );
    if (gaps.every((gap) => gap.severity === "confirm")) {
      const covers = [...new Set(gaps.map((gap) => gap.code))];
      assert.deepEqual(recovery, { found: true, steps: [{ kind: "ruling", approver: "user", covers }] });
    } else {
      assert.equal(recovery.found, false);
    }
  }));
});
