/**
 * A hosted session's queue (`HostedSession.run`) against its reference (each
 * task chained after the one before, settled either way): tasks of one
 * session run one at a time in the order they came (starts and ends in the
 * reference's order), each answers what its task settled with (a task that
 * throws at once included), and the session counts as busy exactly while
 * some task runs or waits. A faster queue must keep all of it.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { HostedSession } from "../adapters/serve/mod.ts";
import { openStore } from "../adapters/store/mod.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";

/** The queue before its fast path: every task waits for the one before, settled either way. */
class ReferenceQueue {
  #queue: Promise<unknown> = Promise.resolve();
  busy = 0;
  run<T>(task: () => Promise<T>): Promise<T> {
    this.busy++;
    const next = this.#queue.catch(() => {}).then(task);
    this.#queue = next;
    const done = () => void this.busy--;
    next.then(done, done);
    return next;
  }
}

/** One task: how many turns it waits, and whether it fails (synchronously, by rejecting) or answers. */
const taskShape = fc.record({
  turns: fc.nat({ max: 4 }),
  outcome: fc.constantFrom("answer", "reject", "throw"),
  // Turns to wait after the task before the next one is submitted (0: at once, in the same turn).
  gap: fc.nat({ max: 3 }),
});

type Shape = { turns: number; outcome: string; gap: number };

/** Run `shapes` through `run`; the log of starts and ends, each task's settlement, and `busy` along the way. */
async function trace(run: (task: () => Promise<unknown>) => Promise<unknown>, busy: () => boolean, shapes: Shape[]) {
  const log: string[] = [];
  let running = 0;
  const settled: Promise<string>[] = [];
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await Promise.resolve();
  };
  for (const [index, shape] of shapes.entries()) {
    const task = () => {
      running++;
      log.push(`start ${index} running ${running}`);
      if (shape.outcome === "throw") {
        running--;
        log.push(`end ${index}`);
        throw new Error(`thrown ${index}`);
      }
      return turns(shape.turns).then(() => {
        running--;
        log.push(`end ${index}`);
        if (shape.outcome === "reject") throw new Error(`rejected ${index}`);
        return index;
      });
    };
    settled.push(run(task).then((value) => `answer ${value}`, (error) => `error ${(error as Error).message}`));
    // Busy from the moment a task is submitted (a task that starts at once, too).
    assert.equal(busy(), true);
    await turns(shape.gap);
  }
  const answers = await Promise.all(settled);
  await turns(3);
  return { log, answers, busyAfter: busy() };
}

Deno.test("HostedSession.run() runs a session's tasks one at a time, in order, as the chained queue does (property)", async () => {
  const store = await openStore(":memory:");
  try {
    const policy = parsePolicy("version: 1\ntools: {}\n", { source: "p.yaml" });
    await fc.assert(
      fc.asyncProperty(fc.array(taskShape, { minLength: 1, maxLength: 8 }), async (shapes) => {
        const session = new HostedSession(policy, {}, store, { id: "s", ledger: "s", created: "" });
        const reference = new ReferenceQueue();
        const got = await trace((task) => session.run(task), () => session.busy, shapes);
        const want = await trace((task) => reference.run(task), () => reference.busy > 0, shapes);
        // Never two at once, each start after the end before it, and the same answers.
        for (const line of got.log) assert.doesNotMatch(line, /running [2-9]/);
        assert.deepEqual(got.log, want.log);
        assert.deepEqual(got.answers, want.answers);
        assert.equal(got.busyAfter, false);
        assert.equal(session.waiting, 0);
      }),
      { numRuns: 300 },
    );
  } finally {
    store.close();
  }
});
