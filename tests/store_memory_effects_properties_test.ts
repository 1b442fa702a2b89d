/**
 * The in-memory ledger's committed keys, shared between commits: over random reserves, commits and releases, every
 * `committed()` equals the keys committed so far (the reference: a pass over every entry), and a set it gave never
 * changes after (a later commit makes a new one).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { MemoryEffects } from "../adapters/store/mod.ts";
import { MemoryEffectStore } from "../core/mod.ts";

const KEY = fc.constantFrom("a", "b", "c", "d", "e");
const HOLDER = fc.constantFrom("h1", "h2", "h3");
const STEP = fc.oneof(
  fc.record({ op: fc.constant("reserve" as const), keys: fc.array(KEY, { maxLength: 3 }), holder: HOLDER }),
  fc.record({ op: fc.constant("commit" as const), keys: fc.array(KEY, { maxLength: 3 }), holder: HOLDER }),
  fc.record({ op: fc.constant("release" as const), keys: fc.array(KEY, { maxLength: 3 }), holder: HOLDER }),
  fc.record({ op: fc.constant("read" as const) }),
);

Deno.test("the in-memory ledger's committed keys match a fresh count after every step and never change once given", () => {
  fc.assert(
    fc.property(fc.array(STEP, { maxLength: 40 }), (steps) => {
      const effects = new MemoryEffects();
      const reference = new Map<string, { state: string; holder: string }>();
      const given: { set: ReadonlySet<string>; keys: string[] }[] = [];
      for (const step of steps) {
        if (step.op === "reserve") {
          const free = !step.keys.some((key) => reference.has(key));
          assert.equal(effects.reserve(step.keys, step.holder), free);
          if (free) { for (const key of step.keys) reference.set(key, { state: "reserved", holder: step.holder }); }
        } else if (step.op === "commit") {
          effects.commit(step.keys, step.holder);
          for (const key of step.keys) reference.set(key, { state: "committed", holder: step.holder });
        } else if (step.op === "release") {
          effects.release(step.keys, step.holder);
          for (const key of step.keys) {
            const entry = reference.get(key);
            if (entry?.state === "reserved" && entry.holder === step.holder) reference.delete(key);
          }
        }
        const expected = [...reference].filter(([, entry]) => entry.state === "committed").map(([key]) => key).sort();
        const set = effects.committed();
        assert.deepEqual([...set].sort(), expected);
        given.push({ set, keys: [...set].sort() });
      }
      // Every set given earlier still holds what it held when it was given.
      for (const { set, keys } of given) assert.deepEqual([...set].sort(), keys);
    }),
    { numRuns: 500 },
  );
});

Deno.test("the core's in-memory effect store gives committed keys that match a fresh count and never change once given", () => {
  fc.assert(
    fc.property(fc.array(STEP, { maxLength: 40 }), (steps) => {
      const effects = new MemoryEffectStore();
      const committed = new Set<string>();
      const held = new Map<string, string>();
      const given: { set: ReadonlySet<string>; keys: string[] }[] = [];
      for (const step of steps) {
        if (step.op === "reserve") {
          const free = !step.keys.some((key) => committed.has(key) || held.has(key));
          assert.equal(effects.reserve(step.keys, step.holder), free);
          if (free) { for (const key of step.keys) held.set(key, step.holder); }
        } else if (step.op !== "read") {
          if (step.op === "commit") effects.commit(step.keys, step.holder);
          else effects.release(step.keys, step.holder);
          for (const key of step.keys) {
            if (held.get(key) === step.holder) held.delete(key);
            if (step.op === "commit") committed.add(key);
          }
        }
        const set = effects.committed();
        assert.deepEqual([...set].sort(), [...committed].sort());
        given.push({ set, keys: [...set].sort() });
      }
      for (const { set, keys } of given) assert.deepEqual([...set].sort(), keys);
    }),
    { numRuns: 500 },
  );
});
