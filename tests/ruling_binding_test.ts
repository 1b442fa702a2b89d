/** Rulings and confirmations bind to the exact call, the exact gaps and the branch label they were shown with. */
import assert from "node:assert/strict";
import fc from "fast-check";
import { type Decision, Guard, parsePolicy } from "../mod.ts";
import { canonicalJson, formatPartialLabel } from "../core/mod.ts";
import { explainDecision, gapKey, RulingError } from "../guard/mod.ts";

const POLICY = parsePolicy(
  `
version: 1
readers: {groups: [public, staff], directory: {"*@corp.example": staff}, unknown: public}
approvers:
  press: {mandate: [recipient]}
  moderator: {mandate: [tainted-context]}
tools:
  read_memo: {output: {readers: [staff], trust: trusted}, on_tainted: allow}
  read_web: {output: untrusted, on_tainted: allow}
  read_forum: {output: untrusted, on_tainted: allow}
  post: {output: trusted, on_tainted: confirm, recipients: [{arg: to}]}
`,
  { source: "binding.yaml" },
);

function guardWith(confirm?: (decision: Decision) => boolean | Promise<boolean>): Guard {
  return new Guard(POLICY, {
    approvers: { press: () => true, moderator: () => true },
    ...(confirm ? { confirm } : {}),
  });
}

Deno.test("a ruling shown under one label does not apply once the branch's label changed, even for the same gaps", async () => {
  const guard = guardWith();
  await guard.propose("read_memo", {}, { run: () => "memo", accept: true });
  const call = { to: "press@outside.example" };
  const ruling = guard.requestRuling("press", "post", call);
  assert.equal(ruling.label, JSON.stringify({ known: { readers: ["staff"], trust: "trusted" }, unknown: [] }));
  // Read something that leaves the recipient gap's text unchanged but makes the label stricter.
  guard.record("read_memo", "more staff memo", { label: { readers: ["staff"], trust: "attested" } });
  assert.equal(formatPartialLabel(guard.label), "<staff | attested>");
  const result = await guard.propose("post", call, { run: () => "posted", accept: true, rulings: [ruling] });
  assert.equal(result.status, "blocked");
  assert.deepEqual(result.decision.waived, []);
  assert.match(result.decision.notes.map((note) => note.message).join("\n"), /given under another label/);
});

Deno.test("a ruling waives only the exact gaps it was shown, not a new gap of the same kind under the same label", async () => {
  const guard = guardWith();
  guard.user("Post the summary to desk@corp.example");
  guard.record("read_web", "web page");
  const call = { to: "desk@corp.example" };
  const ruling = guard.requestRuling("moderator", "post", call);
  assert.deepEqual(ruling.gaps, guard.decide("post", call).gaps.map(gapKey));
  // Another untrusted read: the label stays <public,staff | suspicious>, but the tainted-context gap is a new one.
  const before = formatPartialLabel(guard.label);
  guard.record("read_forum", "forum post");
  assert.equal(formatPartialLabel(guard.label), before);
  const result = await guard.propose("post", call, { run: () => "posted", accept: true, rulings: [ruling] });
  assert.equal(result.status, "blocked");
  assert.deepEqual(result.decision.gaps.map((gap) => gap.message), [
    "context contains untrusted input from tool:read_web, tool:read_forum",
  ]);
  assert.deepEqual(result.decision.waived, []);
  // The same ruling, offered before the new read, would have been spent.
  const fresh = guardWith();
  fresh.user("Post the summary to desk@corp.example");
  fresh.record("read_web", "web page");
  const given = fresh.requestRuling("moderator", "post", call);
  const ok = await fresh.propose("post", call, { run: () => "posted", accept: true, rulings: [given] });
  assert.equal(ok.status, "done");
});

Deno.test("gaps that appear while the user is being asked are not waived by the same yes: the user is asked again", async () => {
  const asked: string[][] = [];
  const guard: Guard = guardWith((decision) => {
    asked.push(decision.gaps.map((gap) => gap.message));
    // While the user reads the first question, the agent reads another untrusted page.
    if (asked.length === 1) guard.record("read_forum", "forum post");
    return true;
  });
  guard.user("Post the summary to desk@corp.example");
  guard.record("read_web", "web page");
  const result = await guard.propose("post", { to: "desk@corp.example" }, { run: () => "posted", accept: true });
  assert.equal(result.status, "done");
  assert.deepEqual(asked, [
    ["context contains untrusted input from tool:read_web"],
    ["context contains untrusted input from tool:read_web, tool:read_forum"],
  ]);
  assert.deepEqual(
    guard.ledger.log.filter((event) => event.kind === "ruling-minted").map((event) => event.detail.ruling),
    ["user#1", "user#2"],
  );
});

Deno.test("a user who says yes to the first question and no to the second blocks the call", async () => {
  let count = 0;
  const guard: Guard = guardWith(() => {
    count++;
    if (count === 1) guard.record("read_forum", "forum post");
    return count === 1;
  });
  guard.record("read_web", "web page");
  guard.user("Post the summary to desk@corp.example");
  const result = await guard.propose("post", { to: "desk@corp.example" }, { run: () => "posted", accept: true });
  assert.equal(result.status, "blocked");
  assert.equal(count, 2);
  assert.deepEqual(result.decision.notes.map((note) => note.code), ["user-declined"]);
});

Deno.test("a confirmation is void when the label changed while the user was asked", async () => {
  const asked: string[] = [];
  const guard: Guard = guardWith((decision) => {
    asked.push(formatPartialLabel(decision.labelBefore));
    if (asked.length === 1) {
      guard.record("read_memo", "staff memo", { label: { readers: ["staff"], trust: "attested" } });
    }
    return true;
  });
  guard.user("Post the summary to desk@corp.example");
  guard.record("read_web", "web page");
  const result = await guard.propose("post", { to: "desk@corp.example" }, { run: () => "posted", accept: true });
  assert.equal(result.status, "done");
  assert.deepEqual(asked, ["<public,staff | suspicious>", "<staff | suspicious>"]);
});

Deno.test("Guard.requestRuling('user', ...) records a confirmation given elsewhere; it waives only confirm gaps, once", async () => {
  const guard = guardWith();
  guard.user("Post the summary to desk@corp.example");
  guard.record("read_web", "web page");
  const call = { to: "desk@corp.example" };
  const yes = guard.requestRuling("user", "post", call);
  assert.deepEqual([yes.approver, yes.covers], ["user", ["tainted-context"]]);
  const done = await guard.propose("post", call, { run: () => "posted", accept: true, rulings: [yes] });
  assert.equal(done.status, "done");
  const again = await guard.propose("post", call, { run: () => "posted", accept: true, rulings: [yes] });
  assert.equal(again.status, "blocked");
  assert.match(again.decision.notes.map((note) => note.message).join("\n"), /already spent/);
  assert.throws(
    () => guard.requestRuling("user", "read_memo", {}),
    (error: unknown) =>
      error instanceof Error &&
      error.message === "Cannot ask the user about read_memo: no open gap can be waived by a confirmation",
  );
});

Deno.test("Guard.confirmShown() binds the user's yes to the decision shown, whatever was read after it", async () => {
  const reads = fc.array(fc.constantFrom("web", "forum", "memo", "none"), { maxLength: 3 });
  await fc.assert(
    fc.asyncProperty(reads, reads, async (before, after) => {
      const guard = guardWith();
      guard.user("Post the summary to desk@corp.example");
      const read = (what: string) => {
        if (what === "web") guard.record("read_web", "web page");
        if (what === "forum") guard.record("read_forum", "forum post");
        if (what === "memo") guard.record("read_memo", "memo", { label: { readers: ["staff"], trust: "attested" } });
      };
      const call = { to: "desk@corp.example" };
      before.forEach(read);
      const shown = guard.decide("post", call);
      if (!shown.gaps.some((gap) => gap.severity === "confirm")) {
        assert.throws(() => guard.confirmShown(shown), RulingError);
        return;
      }
      const yes = guard.confirmShown(shown);
      after.forEach(read);
      const now = guard.decide("post", call);
      const shownKeys = shown.gaps.filter((gap) => gap.severity === "confirm").map(gapKey);
      const expected = canonicalJson(now.labelBefore) === canonicalJson(shown.labelBefore) &&
        now.gaps.every((gap) => gap.severity === "confirm" && shownKeys.includes(gapKey(gap)));
      const result = await guard.propose("post", call, { run: () => "posted", accept: true, rulings: [yes] });
      assert.equal(result.status === "done", expected, explainDecision(result.decision));
    }),
  );
});

Deno.test("Guard.confirmShown() refuses a decision for other arguments, another branch, or with nothing to confirm", () => {
  const guard = guardWith();
  guard.record("read_web", "web page");
  const shown = guard.decide("post", { to: "desk@corp.example" });
  assert.throws(() => guard.confirmShown({ ...shown, args: { to: "eve@attacker.example" } }), {
    name: "RulingError",
    message: "Cannot record a confirmation of post from the decision shown: it is for other arguments",
  });
  assert.throws(
    () => guard.confirmShown({ ...shown, branch: "main/child" }),
    /it was shown in branch "main\/child", not "main"/,
  );
  assert.throws(() => guard.confirmShown({ ...shown, gaps: [] }), /it has no confirm gap/);
});
