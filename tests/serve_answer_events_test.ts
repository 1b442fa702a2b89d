/**
 * `HostedSession.answer` without reading first: a write the store refuses (an input appended meanwhile) writes nothing,
 * so ledger events waiting when the answer starts must still reach the chain with the answer that is written.
 */
import assert from "node:assert/strict";
import { HostedSession } from "../adapters/serve/mod.ts";
import { MemoryStore } from "../adapters/store/mod.ts";
import type { AuditEvent } from "../adapters/audit/mod.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { SERVE_POLICY_YAML } from "./_serve_fixtures.ts";

/** A memory store that refuses the first checked audit write, as if another writer had appended an input. */
class RefusingOnce extends MemoryStore {
  refused = 0;
  override writeAuditEvents(stream: string, events: readonly AuditEvent[]): Promise<void>;
  override writeAuditEvents(
    stream: string,
    events: readonly AuditEvent[],
    check: { expectInputs: number },
  ): Promise<boolean>;
  override writeAuditEvents(
    stream: string,
    events: readonly AuditEvent[],
    check?: { expectInputs: number },
  ): Promise<boolean | void> {
    if (check && this.refused++ === 0) return Promise.resolve(false);
    return check ? super.writeAuditEvents(stream, events, check) : super.writeAuditEvents(stream, events);
  }
}

Deno.test("an unread answer whose checked write is refused keeps the ledger events that were waiting", async () => {
  const store = new RefusingOnce();
  const record = { id: "s_answer", ledger: "s_answer", created: new Date(0).toISOString() };
  assert.equal(await store.createSession(record), true);
  const policy = parsePolicy(SERVE_POLICY_YAML, { source: "serve.yaml" });
  const session = new HostedSession(policy, { approvers: { manager: () => true } }, store, record, false);
  await session.sync();
  // A reservation makes ledger events that wait to be written.
  const reserved = await session.guard.reserve("publish_release", { v: 1 });
  assert.equal(reserved.status, "reserved");
  assert.ok(session.eventsWaiting);
  const at = new Date(0).toISOString();
  const decision = await session.answer(
    (hosted) => hosted.guard.decide("send_email", { to: "a@b.example" }),
    (hosted, decided) => [
      ...hosted.takeEvents().map((event) => ({ kind: "ledger", at, event }) as AuditEvent),
      { kind: "decision", at, decision: decided } as AuditEvent,
    ],
    true,
  );
  assert.equal(decision.tool, "send_email");
  const kinds = (await store.audit(record.id)).map((entry) => entry.event.kind);
  assert.ok(kinds.includes("ledger"), `the waiting ledger events are in the chain: ${kinds.join(", ")}`);
  assert.equal(kinds.filter((kind) => kind === "decision").length, 1);
  assert.equal(session.eventsWaiting, false);
});
