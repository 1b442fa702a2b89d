import assert from "node:assert/strict";
import fc from "fast-check";
import { Guard, type Label, makeLabel, parsePolicy, type PartialLabel } from "../mod.ts";
import {
  atMost,
  type Cast,
  formatPartialLabel,
  knownLabel,
  labelsEqual,
  meetPartial,
  settle,
  TRUST_LEVELS,
} from "../core/mod.ts";

const EVERYONE = ["finance", "hr", "public", "staff"];
const TOP = makeLabel(EVERYONE, "trusted");
const COMPANY = makeLabel(["finance", "hr", "staff"], "trusted");
const WEB = makeLabel(EVERYONE, "suspicious");

function cast(name: string, ceiling: Label, resolve: (tool: string) => Label): Cast {
  return { name, ceiling, resolve };
}

Deno.test("meetPartial() meets the known parts and joins the unknown sources", () => {
  const a: PartialLabel = { known: TOP, unknown: ["wiki_search"] };
  const b: PartialLabel = { known: COMPANY, unknown: ["weather", "wiki_search"] };
  const both = meetPartial(a, b);
  assert.equal(formatPartialLabel(both), "<finance,hr,staff | trusted> + unknown from weather, wiki_search");
  assert.equal(formatPartialLabel(knownLabel(WEB)), "<finance,hr,public,staff | suspicious>");
});

Deno.test("meetPartial() is commutative, associative and idempotent", () => {
  const partial = fc.record({
    known: fc.record({ readers: fc.subarray(EVERYONE), trust: fc.constantFrom(...TRUST_LEVELS) })
      .map(({ readers, trust }) => makeLabel(readers, trust)),
    unknown: fc.subarray(["crm", "weather", "wiki_search"]),
  });
  const same = (x: PartialLabel, y: PartialLabel) =>
    labelsEqual(x.known, y.known) && JSON.stringify(x.unknown) === JSON.stringify(y.unknown);
  fc.assert(fc.property(partial, partial, partial, (a, b, c) => {
    assert.ok(same(meetPartial(a, b), meetPartial(b, a)));
    assert.ok(same(meetPartial(meetPartial(a, b), c), meetPartial(a, meetPartial(b, c))));
    assert.ok(same(meetPartial(a, a), a));
  }));
});

Deno.test("settle() resolves unknown sources with their casts", () => {
  const result = settle({ known: TOP, unknown: ["weather", "wiki_search"] }, {
    wiki_search: cast("wiki_acl", COMPANY, () => COMPANY),
    weather: cast("public_feed", WEB, () => WEB),
  });
  assert.ok(result.ok);
  assert.equal(formatPartialLabel(knownLabel(result.label)), "<finance,hr,staff | suspicious>");
  assert.deepEqual(result.casts, ["public_feed", "wiki_acl"]);
});

Deno.test("settle() fails closed when no cast is registered", () => {
  const result = settle({ known: TOP, unknown: ["weather"] }, {});
  assert.deepEqual(result, {
    ok: false,
    failures: [{
      tool: "weather",
      reason: "no-cast",
      message: "weather: no cast is registered, so its data cannot reach this check",
    }],
  });
});

Deno.test("settle() refuses a cast that goes above its ceiling", () => {
  const result = settle({ known: TOP, unknown: ["wiki_search"] }, {
    wiki_search: cast("sloppy_classifier", COMPANY, () => TOP),
  });
  assert.deepEqual(result, {
    ok: false,
    failures: [{
      tool: "wiki_search",
      reason: "above-ceiling",
      message:
        "wiki_search: cast sloppy_classifier tried <finance,hr,public,staff | trusted>, its ceiling is <finance,hr,staff | trusted>",
    }],
  });
});

Deno.test("settle() turns a cast that throws into a failure", () => {
  const result = settle({ known: TOP, unknown: ["wiki_search"] }, {
    wiki_search: cast("wiki_acl", COMPANY, () => {
      throw new Error("ACL service down");
    }),
  });
  assert.deepEqual(result, {
    ok: false,
    failures: [{
      tool: "wiki_search",
      reason: "cast-failed",
      message: "wiki_search: cast wiki_acl failed: ACL service down",
    }],
  });
});

Deno.test("settle() ignores casts inherited from Object.prototype", () => {
  const result = settle({ known: TOP, unknown: ["toString"] }, {});
  assert.equal(result.ok, false);
});

Deno.test("settle() never gives a label looser than the known part or any cast's ceiling", () => {
  const labelArb = fc.record({ readers: fc.subarray(EVERYONE), trust: fc.constantFrom(...TRUST_LEVELS) })
    .map(({ readers, trust }) => makeLabel(readers, trust));
  fc.assert(fc.property(labelArb, labelArb, labelArb, labelArb, labelArb, (known, c1, r1, c2, r2) => {
    const casts = { a: cast("cast_a", c1, () => r1), b: cast("cast_b", c2, () => r2) };
    const result = settle({ known, unknown: ["a", "b"] }, casts);
    assert.equal(result.ok, atMost(r1, c1) && atMost(r2, c2));
    if (result.ok) {
      assert.ok(atMost(result.label, known));
      assert.ok(atMost(result.label, c1));
      assert.ok(atMost(result.label, c2));
    }
  }));
});

const POLICY = parsePolicy(
  `
version: 1
readers:
  groups: [public, staff]
  directory:
    "*@corp.example": staff
casts:
  wiki_search: {cast: wiki_acl, ceiling: {readers: [staff], trust: trusted}}
tools:
  wiki_search: {on_tainted: allow}
  weather: {on_tainted: allow}
  send_email:
    output: trusted
    on_tainted: allow
    recipients: [{arg: to}]
`,
  { source: "gradual.yaml" },
);

Deno.test("Guard.decide() blocks unlabelled data with no cast at a recipient check", () => {
  const guard = new Guard(POLICY, { casts: { wiki_acl: () => makeLabel(["staff"], "trusted") } });
  guard.record("weather", "Sunny, 21 degrees");
  assert.equal(formatPartialLabel(guard.label), "<public,staff | trusted> + unknown from weather");
  const decision = guard.decide("send_email", { to: "bob@corp.example", body: "It is sunny" });
  assert.equal(decision.outcome, "block");
  assert.deepEqual(decision.gaps.map((gap) => [gap.code, gap.message]), [
    ["unlabelled", "weather: no cast is registered, so its data cannot reach this check"],
  ]);
});

Deno.test("Guard.decide() settles unlabelled data with its cast and judges the settled label", () => {
  const guard = new Guard(POLICY, { casts: { wiki_acl: () => makeLabel(["staff"], "trusted") } });
  guard.record("wiki_search", "Internal onboarding guide");
  const inside = guard.decide("send_email", { to: "bob@corp.example" });
  assert.equal(inside.outcome, "allow");
  assert.deepEqual(inside.notes.map((note) => note.code), ["cast"]);
  const outside = guard.decide("send_email", { to: "eve@attacker.example" });
  assert.equal(outside.outcome, "block");
  assert.deepEqual(outside.gaps.map((gap) => gap.message), [
    "send_email would send <staff | trusted> data to to='eve@attacker.example' (group public), who may not read it",
  ]);
});

Deno.test("Guard.decide() blocks when a registered cast throws", () => {
  const guard = new Guard(POLICY, {
    casts: {
      wiki_acl: () => {
        throw new Error("ACL service down");
      },
    },
  });
  guard.record("wiki_search", "Internal onboarding guide");
  const decision = guard.decide("send_email", { to: "bob@corp.example" });
  assert.equal(decision.outcome, "block");
  assert.deepEqual(decision.gaps.map((gap) => [gap.code, gap.message]), [
    ["unlabelled", "wiki_search: cast wiki_acl failed: ACL service down"],
  ]);
});

Deno.test("new Guard() rejects casts the policy does not name and names the cast a policy lacks", () => {
  assert.throws(
    () => new Guard(POLICY, { casts: { wiki_acl: () => TOP, ghost: () => TOP } }),
    (error: unknown) =>
      error instanceof TypeError &&
      error.message === 'Cannot register cast "ghost": policy "gradual.yaml" does not name it under casts',
  );
  assert.throws(
    () => new Guard(POLICY),
    (error: unknown) =>
      error instanceof TypeError &&
      error.message ===
        'Cannot make a guard: policy "gradual.yaml" names cast "wiki_acl" for wiki_search but no labeller is registered (options.casts.wiki_acl)',
  );
});

Deno.test("knownLabel() wraps a frozen label once and any label as a frozen, fully known partial label", () => {
  const label = makeLabel(["hr", "staff"], "trusted");
  const wrapped = knownLabel(label);
  assert.equal(knownLabel(label), wrapped);
  assert.deepEqual(wrapped, { known: label, unknown: [] });
  assert.ok(Object.isFrozen(wrapped) && Object.isFrozen(wrapped.unknown));
  const loose = { readers: ["hr"], trust: "trusted" } as unknown as Label;
  const first = knownLabel(loose);
  assert.notEqual(knownLabel(loose), first);
  assert.equal(first.known, loose);
});
