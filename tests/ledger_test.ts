import assert from "node:assert/strict";
import { Guard, parsePolicy, ToolCallDenied } from "../mod.ts";
import { fingerprintCall, Ledger } from "../core/mod.ts";

Deno.test("Ledger.record() appends numbered, frozen events", () => {
  const ledger = new Ledger();
  const first = ledger.record("dispatch", "main", { tool: "send_email", fingerprint: "f1", detail: { rulings: [] } });
  ledger.record("blocked", "main/child", { tool: "refund", detail: { gaps: ["approval"] } });
  ledger.record("branch-opened", "main");
  assert.deepEqual(ledger.log, [
    { seq: 0, kind: "dispatch", branch: "main", tool: "send_email", fingerprint: "f1", detail: { rulings: [] } },
    { seq: 1, kind: "blocked", branch: "main/child", tool: "refund", detail: { gaps: ["approval"] } },
    { seq: 2, kind: "branch-opened", branch: "main", detail: {} },
  ]);
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.detail));
});

Deno.test("Ledger.log cannot be used to rewrite history", () => {
  const ledger = new Ledger();
  ledger.record("dispatch", "main", { tool: "send_release" });
  const log = ledger.log as unknown as unknown[];
  assert.throws(() => log.push({ seq: 1 }), TypeError);
  assert.throws(() => log.pop(), TypeError);
  assert.throws(() => {
    (ledger.log[0] as { kind: string }).kind = "blocked";
  }, TypeError);
  assert.equal(ledger.log.length, 1);
  assert.equal(ledger.log[0].kind, "dispatch");
});

Deno.test("Ledger.commit() records effects that has() and committed report", () => {
  const ledger = new Ledger();
  assert.equal(ledger.has("release.sent"), false);
  ledger.commit(["release.sent", "legal.precleared"]);
  ledger.commit(["release.sent"]);
  assert.equal(ledger.has("release.sent"), true);
  assert.equal(ledger.has("refund.issued"), false);
  assert.deepEqual(ledger.committed, ["legal.precleared", "release.sent"]);
  assert.throws(() => (ledger.committed as string[]).pop(), TypeError);
  assert.equal(ledger.has("release.sent"), true);
});

const POLICY = parsePolicy(
  `
version: 1
tools:
  send_release:
    output: trusted
    once: release.sent
  file_ticket:
    output: trusted
    effects: [ticket.filed]
`,
  { source: "ledger.yaml" },
);

Deno.test("Guard.propose() commits a tool's effects only after it really finished", async () => {
  const guard = new Guard(POLICY);
  const result = await guard.propose("file_ticket", { name: "BENCH-AUDIT" }, { run: () => "filed" });
  assert.equal(result.status, "done");
  assert.deepEqual(guard.ledger.committed, ["ticket.filed"]);
  assert.deepEqual(guard.ledger.log.map((event) => [event.kind, event.tool, event.fingerprint]), [
    ["dispatch", "file_ticket", fingerprintCall("file_ticket", { name: "BENCH-AUDIT" })],
    ["committed", "file_ticket", undefined],
  ]);
  assert.deepEqual(guard.ledger.log.at(-1)?.detail, { keys: ["ticket.filed"] });
});

Deno.test("Guard.propose() commits nothing and logs tool-failed when the tool throws", async () => {
  const guard = new Guard(POLICY);
  await assert.rejects(
    guard.propose("send_release", { to: "cs@northwind.example" }, {
      run: () => {
        throw new Error("mail server timed out");
      },
    }),
    (error: unknown) => error instanceof Error && error.message === "mail server timed out",
  );
  assert.deepEqual(guard.ledger.committed, []);
  assert.deepEqual(guard.ledger.log.map((event) => [event.kind, event.detail]), [
    ["dispatch", { rulings: [], accepted: false }],
    ["reserved", { keys: ["release.sent"] }],
    ["released", { keys: ["release.sent"] }],
    ["tool-failed", { error: "mail server timed out" }],
  ]);
  // Nothing was committed, so "only once" still lets the retry through.
  const retry = await guard.propose("send_release", { to: "cs@northwind.example" }, { run: () => "sent" });
  assert.equal(retry.status, "done");
  assert.deepEqual(guard.ledger.committed, ["release.sent"]);
});

Deno.test("Guard blocks a second once-only call after the first committed", async () => {
  const guard = new Guard(POLICY);
  const sendRelease = guard.protect(() => "sent", { name: "send_release" });
  await sendRelease({ to: "cs@northwind.example", code: "R-77" });
  await assert.rejects(sendRelease({ to: "archive@northwind.example", code: "R-77" }), (error: unknown) => {
    assert.ok(error instanceof ToolCallDenied);
    assert.equal(error.code, "ERR_TOOL_CALL_DENIED");
    assert.equal(
      error.message,
      'Tool call denied: send_release: block\n- [no-prior] send_release may not run once "release.sent" is in the ledger\n' +
        "way to yes: none in this policy: [no-prior] no approver's mandate covers [no-prior]; the ledger is append-only, so this cannot be undone",
    );
    return true;
  });
  assert.deepEqual(guard.ledger.log.map((event) => event.kind), ["dispatch", "reserved", "committed", "blocked"]);
});

Deno.test("Guard's child branches write into the same ledger as their parent", async () => {
  const policy = parsePolicy(
    `
version: 1
schemas:
  triage: {fields: {ok: bool}, merge: trusted}
tools:
  send_release: {output: trusted, once: release.sent}
`,
  );
  const guard = new Guard(policy);
  const child = guard.fork("triage");
  assert.equal(child.ledger, guard.ledger);
  await child.propose("send_release", { to: "cs@northwind.example" }, { run: () => "sent" });
  assert.equal(guard.ledger.has("release.sent"), true);
  assert.equal(guard.decide("send_release", { to: "cs@northwind.example" }).outcome, "block");
  assert.deepEqual(guard.ledger.log.map((event) => [event.kind, event.branch]), [
    ["branch-opened", "main"],
    ["dispatch", "main/child"],
    ["reserved", "main/child"],
    ["committed", "main/child"],
  ]);
});
