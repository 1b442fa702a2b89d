/**
 * The parts that keep sessions apart across worker threads: the route from a
 * session id to one worker, the ids a worker makes, the session named by a
 * path, and the shared tally the session cap is checked against.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { ownedSessionIds, routeKeyOf, sessionOfPath, workerOf } from "../adapters/serve/worker_route.ts";
import { localTally, sharedTally, sharedTallyBuffer } from "../adapters/serve/session_tally.ts";
import { LiveSessions } from "../adapters/serve/live_sessions.ts";
import { serveLimits } from "../adapters/serve/serve_limits.ts";

Deno.test("workerOf() routes every key to one worker in range, the same each time (property)", () => {
  fc.assert(fc.property(fc.string({ maxLength: 200 }), fc.integer({ min: 1, max: 64 }), (key, count) => {
    const worker = workerOf(key, count);
    assert.ok(Number.isInteger(worker) && worker >= 0 && worker < count);
    assert.equal(workerOf(key, count), worker);
  }));
});

Deno.test("ownedSessionIds() makes session ids that route to its worker (property)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 8 }).chain((count) =>
        fc.tuple(fc.constant(count), fc.integer({ min: 0, max: count - 1 }))
      ),
      ([count, index]) => {
        const next = ownedSessionIds(index, count);
        for (let i = 0; i < 5; i++) {
          const id = next();
          // One worker keeps the default ids; with more, 128 bits are drawn so >= 96 stay random past routing.
          assert.match(id, count === 1 ? /^s_[0-9a-f]{24}$/ : /^s_[0-9a-f]{32}$/);
          assert.equal(workerOf(id, count), index);
        }
      },
    ),
  );
});

Deno.test("sessionOfPath() names the session of every session path and none of other paths (property)", () => {
  const id = fc.stringMatching(/^[A-Za-z0-9_.:-]{1,200}$/);
  const action = fc.constantFrom("", "/audit", "/messages", "/results", "/decide", "/propose", "/commit");
  fc.assert(fc.property(id, action, (session, tail) => {
    assert.equal(sessionOfPath(`/v1/sessions/${session}${tail}`), session);
  }));
  for (const path of ["/v1/sessions", "/v1/sessions/", "/v1/health", "/v1/hooks/claude-code", "/v2/sessions/s_1"]) {
    assert.equal(sessionOfPath(path), undefined, path);
  }
});

Deno.test("sharedTally() never lets claims past the cap, across views of one buffer (property)", () => {
  const step = fc.record({ view: fc.integer({ min: 0, max: 2 }), claim: fc.boolean() });
  fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.array(step, { maxLength: 60 }), (max, steps) => {
    const buffer = sharedTallyBuffer();
    const views = [sharedTally(buffer), sharedTally(buffer), sharedTally(buffer)];
    const model = localTally();
    for (const { view, claim } of steps) {
      if (claim) assert.equal(views[view].claim(max), model.claim(max));
      else if (model.count > 0) {
        views[view].add(-1);
        model.add(-1);
      }
      for (const each of views) assert.equal(each.count, model.count);
      assert.ok(model.count <= max);
    }
  }));
});

Deno.test("LiveSessions counts each live session once in a shared tally: made, touched, found, forgotten", () => {
  const buffer = sharedTallyBuffer();
  const limits = serveLimits({ maxSessions: 2 });
  const [a, b] = [
    new LiveSessions(limits, () => 0, 10, sharedTally(buffer)),
    new LiveSessions(limits, () => 0, 10, sharedTally(buffer)),
  ];
  assert.equal(a.claim(), true);
  a.touch("s_1", true, true);
  a.touch("s_1");
  assert.equal(b.hasRoom(), true);
  // A session found in the store (made by another process) counts too.
  b.touch("s_2");
  assert.equal(a.hasRoom(), false);
  assert.equal(b.claim(), false);
  a.end("s_1", "deleted");
  assert.equal(b.claim(), true);
  b.unclaim();
  b.forget("s_2");
  assert.equal(sharedTally(buffer).count, 0);
});

Deno.test("routeKeyOf() routes by the path's session, else a new session's ledger or a route key's body field (property)", () => {
  const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
  const key = fc.stringMatching(/^[A-Za-z0-9_.:-]{1,80}$/);
  const keys = { "/v1/hooks/claude-code": (body: unknown) => (body as { session_id?: string } | null)?.session_id };
  fc.assert(fc.property(key, key, fc.anything(), (session, named, body) => {
    // The path's session wins over any body.
    assert.equal(routeKeyOf(`/v1/sessions/${session}/decide`, json({ ledger: named }), keys), session);
    assert.equal(routeKeyOf("/v1/sessions", json({ ledger: named }), keys), named);
    assert.equal(routeKeyOf("/v1/hooks/claude-code", json({ session_id: named }), keys), named);
    // A key that is not a string, or a body that is not JSON (or too deep to parse), names none and never throws.
    assert.equal(routeKeyOf("/v1/sessions", json({ ledger: typeof body === "string" ? 1 : body }), keys), undefined);
    assert.equal(routeKeyOf("/v1/sessions", new TextEncoder().encode(`{"ledger":${session}`), keys), undefined);
    assert.equal(routeKeyOf("/v1/sessions", new TextEncoder().encode(`${"[".repeat(3000)}`), keys), undefined);
    // Other endpoints' bodies are not read.
    assert.equal(routeKeyOf("/v1/health", json({ ledger: named, session_id: named }), keys), undefined);
    assert.equal(routeKeyOf("/v1/hooks/claude-code", json({ session_id: named })), undefined);
  }));
});
