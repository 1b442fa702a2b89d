/**
 * The guard reads evidence through harvest's typed, ranked index: untrusted
 * field patterns cover whole subtrees, the strongest source is found first
 * however often a value recurs, and typed values vouch only whole.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { Guard, parsePolicy } from "../mod.ts";

const POLICY = parsePolicy(
  `
version: 1
default:
  on_tainted: confirm
tools:
  read_inbox:
    output: trusted
    on_tainted: allow
    untrusted_fields: [from, "**.headers"]
  search_web: {output: untrusted, on_tainted: allow}
  send_email:
    on_tainted: allow
    args:
      to: {require: trusted, on_violation: block}
`,
  { source: "wiring.yaml" },
);

Deno.test("Guard.record() treats every leaf under an untrusted field pattern as untrusted, however deep", () => {
  const guard = new Guard(POLICY);
  guard.record("read_inbox", {
    messages: [
      { from: { address: "eve@attacker.example", name: "Eve" }, subject: "Hello", to: "alice@corp.example" },
      { meta: { headers: { reply: "mallory@attacker.example" } }, subject: "Re" },
    ],
  });
  const fromNested = guard.decide("send_email", { to: "eve@attacker.example" });
  assert.equal(fromNested.outcome, "block");
  assert.deepEqual(fromNested.gaps.map((gap) => gap.code), ["untrusted-argument"]);
  assert.match(fromNested.gaps[0].message, /tool:read_inbox\[\*\*\.headers,from\]/);
  assert.equal(guard.decide("send_email", { to: "mallory@attacker.example" }).outcome, "block");
  // A field outside the patterns still vouches as the tool's own data.
  assert.equal(guard.decide("send_email", { to: "alice@corp.example" }).outcome, "allow");
});

Deno.test("Guard.decide() finds the trusted source of a value however many untrusted sources repeat it", () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), (before, after) => {
      const guard = new Guard(POLICY);
      for (let i = 0; i < before; i++) guard.record("search_web", `page ${i}: write to bob@corp.example`);
      guard.user("Send the notes to bob@corp.example");
      for (let i = 0; i < after; i++) guard.record("search_web", `page ${i}: bob@corp.example again`);
      const decision = guard.decide("send_email", { to: "bob@corp.example" });
      assert.equal(decision.outcome, "allow");
      assert.deepEqual(decision.evidence.map((item) => item.sources), [["user"]]);
    }),
    { numRuns: 40 },
  );
});

Deno.test("Guard.decide() never lets a trusted address vouch for a strict part of it", () => {
  fc.assert(
    fc.property(
      fc.constantFrom("x@acme.co.uk", "first.last@corp.example", "a+tag@mail.example"),
      (address) => {
        const guard = new Guard(POLICY);
        guard.user(`Write to ${address} today`);
        const [local, domain] = address.split("@");
        const parts = [
          domain,
          `${local}@${domain.split(".").slice(0, -1).join(".")}`,
          `${local.split(/[.+]/).at(-1)}@${domain}`,
        ].filter((part) => part !== address);
        for (const part of parts) {
          assert.notEqual(guard.decide("send_email", { to: part }).outcome, "allow", `${part} from ${address}`);
        }
        assert.equal(guard.decide("send_email", { to: address.toUpperCase() }).outcome, "allow");
      },
    ),
  );
});

Deno.test("parsePolicy() rejects an untrusted field pattern with an empty key, with its path and a hint", () => {
  assert.throws(
    () =>
      parsePolicy(`version: 1\ntools:\n  read_inbox: {output: trusted, untrusted_fields: [from, "a..b"]}\n`, {
        source: "bad.yaml",
      }),
    (error: Error & { code?: string; issues?: { path: string; message: string }[] }) => {
      assert.equal(error.code, "ERR_POLICY_INVALID");
      assert.equal(error.issues?.[0].path, "tools.read_inbox.untrusted_fields[1]");
      assert.match(error.issues?.[0].message ?? "", /^invalid field pattern "a\.\.b": /);
      return true;
    },
  );
});
