/** The ledger's effects: reserved at dispatch, one call at a time per effect, with arguments, in a pluggable store. */
import assert from "node:assert/strict";
import fc from "fast-check";
import { type EffectStore, Guard, type LedgerEvent, parsePolicy } from "../mod.ts";
import { MemoryEffectStore } from "../core/mod.ts";
import { ReservationError } from "../guard/mod.ts";

const POLICY = parsePolicy(
  `
version: 1
approvers:
  legal: {mandate: [prior]}
tools:
  send_release: {output: trusted, once: release.sent}
  refund: {output: trusted, once: "refund.issued{account}"}
  close_books: {output: trusted, effects: [books.closed]}
  post_entry: {output: trusted, requires_no_prior: [books.closed]}
  preclear:
    output: trusted
    effects: ["legal.precleared{client}"]
    prerequisite: {args: {client: "{{client}}"}}
  send_terms: {output: trusted, requires_prior: ["legal.precleared{client}"]}
`,
  { source: "effects.yaml" },
);

const LEGAL = { approvers: { legal: () => true } };

/** A store whose answers arrive later, as a database's would. */
class SlowStore implements EffectStore {
  readonly #inner = new MemoryEffectStore();
  async reserve(keys: readonly string[], holder: string): Promise<boolean> {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return this.#inner.reserve(keys, holder);
  }
  async commit(keys: readonly string[], holder: string): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 1));
    this.#inner.commit(keys, holder);
  }
  release(keys: readonly string[], holder: string): void {
    this.#inner.release(keys, holder);
  }
  committed(): ReadonlySet<string> {
    return this.#inner.committed();
  }
}

Deno.test("Guard.propose(): of 1,000 concurrent once-only proposals exactly one runs", async () => {
  for (const effects of [undefined, new SlowStore()]) {
    const guard = new Guard(POLICY, { ...LEGAL, ...(effects ? { effects } : {}) });
    let runs = 0;
    const results = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) =>
        guard.propose("send_release", { to: `desk-${i}` }, {
          run: async () => {
            runs++;
            await new Promise((resolve) => setTimeout(resolve, 0));
            return "sent";
          },
        })),
    );
    assert.equal(runs, 1);
    assert.equal(results.filter((result) => result.status === "done").length, 1);
    const blocked = results.filter((result) => result.status === "blocked");
    assert.equal(blocked.length, 999);
    assert.ok(blocked.every((result) => result.decision.gaps.every((gap) => gap.code === "no-prior")));
    assert.deepEqual(guard.ledger.committed, ["release.sent"]);
  }
});

Deno.test("Guard.propose(): a call that checks an effect and one that writes it never run at the same time", async () => {
  const guard = new Guard(POLICY, LEGAL);
  let release: () => void = () => {};
  const slow = guard.propose("close_books", {}, {
    run: () => new Promise((resolve) => (release = () => resolve("closed"))),
  });
  const entry = await guard.propose("post_entry", { amount: 5 }, { run: () => "posted" });
  assert.equal(entry.status, "blocked");
  assert.match(entry.decision.gaps[0].message, /another call holds or the ledger has/);
  release();
  assert.equal((await slow).status, "done");
  const after = await guard.propose("post_entry", { amount: 5 }, { run: () => "posted" });
  assert.equal(after.status, "blocked");
  assert.match(after.decision.gaps[0].message, /may not run once "books.closed" is in the ledger/);
});

Deno.test("Guard: an effect with arguments is reserved and required per argument value", async () => {
  const guard = new Guard(POLICY, { approvers: { legal: () => false } });
  const refunds = await Promise.all([
    guard.propose("refund", { account: 4211 }, { run: () => "ok" }),
    guard.propose("refund", { account: 4211 }, { run: () => "ok" }),
    guard.propose("refund", { account: 7000 }, { run: () => "ok" }),
  ]);
  assert.deepEqual(refunds.map((result) => result.status), ["done", "blocked", "done"]);
  assert.deepEqual(guard.ledger.committed, ['refund.issued{"account":4211}', 'refund.issued{"account":7000}']);

  assert.equal((await guard.propose("preclear", { client: 4211 }, { run: () => "ok" })).status, "done");
  assert.equal(guard.decide("send_terms", { client: 4211 }).outcome, "allow");
  const other = guard.decide("send_terms", { client: 4212 });
  assert.deepEqual(other.gaps.map((gap) => [gap.code, gap.effect]), [["prior", 'legal.precleared{"client":4212}']]);
  assert.deepEqual(other.recovery, {
    found: true,
    steps: [{ kind: "run", tool: "preclear", args: { client: 4212 }, writes: ['legal.precleared{"client":4212}'] }],
  });
});

Deno.test("Guard.reserve() and complete() dispatch a call run elsewhere, and complete() rejects what it did not reserve", async () => {
  const guard = new Guard(POLICY, LEGAL);
  const first = await guard.reserve("send_release", { to: "press" });
  assert.equal(first.status, "reserved");
  if (first.status !== "reserved") return;
  assert.deepEqual([first.reservation.tool, first.reservation.effects], ["send_release", ["release.sent"]]);
  assert.equal(first.reservation.fingerprint, first.decision.fingerprint);
  assert.equal((await guard.reserve("send_release", { to: "other" })).status, "blocked");
  guard.complete(first.reservation, { output: "sent" });
  assert.deepEqual(guard.ledger.committed, ["release.sent"]);
  assert.deepEqual(guard.sources.map((source) => source.name), ["tool:send_release"]);
  for (const bogus of [first.reservation, { ...first.reservation }, { ...first.reservation, id: "main#call-9" }]) {
    assert.throws(
      () => guard.complete(bogus, { output: "again" }),
      (error: unknown) =>
        error instanceof ReservationError && error.code === "ERR_RESERVATION_UNKNOWN" &&
        /^Cannot complete reservation "main#call-[19]": this guard holds no such call$/.test(error.message),
    );
  }
});

Deno.test("Guard.complete() with an error records its text under the tool's label and releases the reservation", async () => {
  const guard = new Guard(POLICY, LEGAL);
  const reserved = await guard.reserve("send_release", { to: "press" });
  assert.equal(reserved.status, "reserved");
  if (reserved.status !== "reserved") return;
  assert.throws(
    () => guard.complete({ ...reserved.reservation, fingerprint: "0".repeat(64) }, { error: "x" }),
    ReservationError,
  );
  guard.complete(reserved.reservation, { error: "SMTP 451: try later" });
  assert.deepEqual(guard.ledger.committed, []);
  assert.deepEqual(guard.sources.map((source) => [source.name, source.trust]), [["tool:send_release", "trusted"]]);
  assert.deepEqual(guard.ledger.log.slice(-2).map((event) => event.kind), ["released", "tool-failed"]);
  // Released, not committed: the retry may run.
  assert.equal((await guard.reserve("send_release", { to: "press" })).status, "reserved");
});

Deno.test("GuardOptions.onEvent hears every decision, ruling, reservation and effect, as plain JSON", async () => {
  const events: LedgerEvent[] = [];
  const guard = new Guard(POLICY, { approvers: { legal: () => true }, onEvent: (event) => events.push(event) });
  await guard.propose("send_release", { to: "press" }, { run: () => "sent" });
  await guard.propose("send_release", { to: "press" }, { run: () => "sent" });
  const ruling = guard.requestRuling("legal", "send_terms", { client: 1 });
  await guard.propose("send_terms", { client: 1 }, { run: () => "sent", rulings: [ruling] });
  assert.deepEqual(events.map((event) => event.kind), [
    "dispatch",
    "reserved",
    "committed",
    "blocked",
    "ruling-minted",
    "ruling-spent",
    "dispatch",
  ]);
  assert.deepEqual(JSON.parse(JSON.stringify(events)), events);
  assert.deepEqual(events, guard.ledger.log);
});

Deno.test("GuardOptions.onEvent that throws changes nothing: the event is logged and the call goes on", async () => {
  const guard = new Guard(POLICY, {
    ...LEGAL,
    onEvent: () => {
      throw new Error("listener down");
    },
  });
  assert.equal((await guard.propose("send_release", { to: "press" }, { run: () => "sent" })).status, "done");
  assert.equal(guard.ledger.log.length, 3);
  assert.throws(() => new Guard(POLICY, { ...LEGAL, onEvent: "log" as unknown as () => void }), TypeError);
});

Deno.test("MemoryEffectStore.reserve() is all or nothing and commit() is for good", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.constantFrom("a", "b", "c"), fc.constantFrom("h1", "h2")), { maxLength: 20 }),
      (ops) => {
        const store = new MemoryEffectStore();
        const held = new Map<string, string>();
        for (const [key, holder] of ops) {
          const ok = store.reserve([key, "z"], holder);
          assert.equal(ok, !held.has(key) && !held.has("z") && !store.committed().has(key));
          if (ok) {
            held.set(key, holder);
            held.set("z", holder);
            store.commit([key], holder);
            store.release(["z"], holder);
            held.delete("z");
          }
        }
        for (const key of held.keys()) assert.ok(store.committed().has(key));
      },
    ),
  );
});

Deno.test("Guard.complete() accepts a reservation that went through JSON, once", async () => {
  const guard = new Guard(POLICY, LEGAL);
  const reserved = await guard.reserve("send_release", { to: "press" });
  assert.equal(reserved.status, "reserved");
  if (reserved.status !== "reserved") return;
  const copy = JSON.parse(JSON.stringify(reserved.reservation));
  guard.complete(copy, { output: "sent" });
  assert.deepEqual(guard.ledger.committed, ["release.sent"]);
  assert.throws(() => guard.complete(copy, { output: "sent" }), ReservationError);
});
