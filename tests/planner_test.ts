/** planRecovery(): the planner over plain state, tested without a Guard. */
import assert from "node:assert/strict";
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
