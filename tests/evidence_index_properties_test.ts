/** The flat index's early-stopping look-ups agree with the full one, for any sources, ranks and forks. */
import assert from "node:assert/strict";
import fc from "fast-check";
import { EvidenceIndex, structuredLeaves, tokenize } from "../harvest/mod.ts";

const WORDS = ["alice@corp.example", "eve@evil.example", "1,000", "1000", "pay", "the", "https://x.example/a", "to"];
const textArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }).map((words) => words.join(" "));
const sourceArb = fc.record({
  kind: fc.constantFrom("text", "fields"),
  rank: fc.integer({ min: 0, max: 3 }),
  texts: fc.array(textArb, { minLength: 1, maxLength: 3 }),
  inChild: fc.boolean(),
});

Deno.test("EvidenceIndex.vouch() and sources() agree with find() on which sources contain a value", () => {
  fc.assert(
    fc.property(
      fc.array(sourceArb, { maxLength: 12 }),
      textArb,
      fc.integer({ min: 0, max: 3 }),
      fc.func(fc.boolean()),
      (sources, value, minRank, acceptRaw) => {
        const parent = new EvidenceIndex();
        const child = parent.fork();
        const ranks = new Map<number, number>();
        sources.forEach((source, id) => {
          const index = source.inChild ? child : parent;
          ranks.set(id, source.rank);
          if (source.kind === "text") { for (const text of source.texts) index.addText(id, text, source.rank); }
          else index.addFields(id, source.texts, source.rank);
        });
        const accept = (id: number) => acceptRaw(id) as boolean;
        for (const index of [parent, child]) {
          const all = index.find(value).map((match) => match.sourceId);
          const eligible = all.filter((id) => ranks.get(id)! >= minRank && accept(id));
          const vouched = index.vouch(value, accept, minRank);
          if (eligible.length) assert.ok(eligible.includes(vouched.sourceId!), `vouch gave ${vouched.sourceId}`);
          else assert.equal(vouched.sourceId, undefined);
          assert.equal(vouched.seenIn === undefined, all.length === 0);
          if (vouched.seenIn !== undefined) assert.ok(all.includes(vouched.seenIn));
          assert.deepEqual([...index.sources(value)].sort((a, b) => a - b), all);
          const strong = all.filter((id) => ranks.get(id)! >= minRank);
          assert.deepEqual([...index.sources(value, minRank)].sort((a, b) => a - b), strong);
        }
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("EvidenceIndex.addStructured() finds exactly what indexing each key and leaf as its own text finds", () => {
  // The structured path remembers short leaves and reads whole numbers without a scan: it must agree with scanning.
  const leafArb = fc.oneof(
    textArb,
    fc.string({ maxLength: 45 }),
    fc.integer({ min: -20, max: 20_000_000 }),
    fc.double({ noNaN: true }),
    fc.boolean(),
    fc.constant(null),
  );
  const valueArb = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      leafArb,
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(fc.oneof(textArb, fc.string({ maxLength: 8 })), tie("value"), { maxKeys: 4 }),
    ),
  })).value;
  const leaves = (value: unknown, out: string[]): string[] => {
    if (value === null || value === undefined) return out;
    if (Array.isArray(value)) { for (const item of value) leaves(item, out); }
    else if (typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        out.push(key);
        leaves(item, out);
      }
    } else out.push(String(value));
    return out;
  };
  fc.assert(
    fc.property(
      fc.array(valueArb, { minLength: 1, maxLength: 4 }),
      fc.array(textArb, { maxLength: 6 }),
      (values, asked) => {
        const structured = new EvidenceIndex();
        const scanned = new EvidenceIndex();
        values.forEach((value, id) => {
          structured.addStructured(id, value, id % 3);
          for (const leaf of leaves(value, [])) scanned.addText(id, leaf, id % 3);
        });
        for (const value of [...asked, ...values.flatMap((value) => leaves(value, []))]) {
          assert.deepEqual(structured.find(value), scanned.find(value), `value ${JSON.stringify(value)}`);
          assert.deepEqual(structured.vouch(value, () => true, 1), scanned.vouch(value, () => true, 1));
        }
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("tokenize() reads a whole number below 10,000,000 as the one token addStructured() gives it", () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 9_999_999 }), (value) => {
      assert.deepEqual(tokenize(String(value)), [`num:${value}`]);
    }),
    { numRuns: 2000 },
  );
  for (const value of [0, 7, 999, 1000, 9_999_999]) assert.deepEqual(tokenize(String(value)), [`num:${value}`]);
});

Deno.test("EvidenceIndex answers between recordings as a fresh index would (remembered look-ups never go stale)", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(textArb, textArb), { minLength: 1, maxLength: 10 }), (steps) => {
      const live = new EvidenceIndex();
      steps.forEach(([added, asked], id) => {
        // Ask first (so a "not seen" answer is remembered), then record, then ask again.
        const before = live.vouch(asked, () => true, 0);
        live.addText(id, added, id % 2);
        const fresh = new EvidenceIndex();
        for (let k = 0; k <= id; k++) fresh.addText(k, steps[k][0], k % 2);
        assert.equal(before.seenIn === undefined, id === 0 || fresh.find(asked).every((m) => m.sourceId === id));
        for (const value of [asked, added]) {
          assert.deepEqual(live.vouch(value, () => true, 1), fresh.vouch(value, () => true, 1));
          assert.deepEqual(live.find(value), fresh.find(value));
          assert.deepEqual([...live.sources(value)], [...fresh.sources(value)]);
        }
      });
    }),
    { numRuns: 300 },
  );
});

Deno.test("EvidenceIndex.addStructured() agrees with scanning each leaf when short leaves overflow those it remembers", () => {
  // More distinct short leaves than the index remembers (two generations), with recurring ones in between.
  const rows = Array.from({ length: 6000 }, (_, i) => ({
    from: `u${i % 50}@corp.example`,
    note: `ticket ${i} closed`,
    id: i * 7919,
  }));
  const structured = new EvidenceIndex();
  const scanned = new EvidenceIndex();
  rows.forEach((row, id) => {
    structured.addStructured(id, row, 1);
    for (const [key, value] of Object.entries(row)) {
      scanned.addText(id, key, 1);
      scanned.addText(id, String(value), 1);
    }
  });
  for (const value of ["u7@corp.example", "ticket 5999 closed", "ticket 12", "from", String(4321 * 7919), "note u7"]) {
    assert.deepEqual(structured.find(value), scanned.find(value), value);
  }
  assert.equal(structured.find("u7@corp.example").length, 120);
});

Deno.test("structuredLeaves() with addLeaves() index what addStructured() indexes, and refuse exactly the values nested too deep", () => {
  const valueArb = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      textArb,
      fc.integer({ min: -5, max: 20_000_000 }),
      fc.double({ noNaN: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie("value"), { maxLength: 3 }),
      fc.dictionary(textArb, tie("value"), { maxKeys: 3 }),
    ),
  })).value;
  const depthOf = (value: unknown): number =>
    typeof value !== "object" || value === null ? 0 : 1 + Math.max(0, ...Object.values(value).map(depthOf));
  fc.assert(
    fc.property(
      valueArb,
      fc.integer({ min: 1, max: 6 }),
      fc.array(textArb, { maxLength: 4 }),
      (value, limit, asked) => {
        const leaves = structuredLeaves(value, limit);
        assert.equal(leaves === undefined, depthOf(value) > limit, JSON.stringify(value));
        if (!leaves) return;
        const viaLeaves = new EvidenceIndex();
        viaLeaves.addLeaves(0, leaves, 1);
        const direct = new EvidenceIndex();
        direct.addStructured(0, value, 1);
        for (const text of [...asked, ...leaves.map(String)]) assert.deepEqual(viaLeaves.find(text), direct.find(text));
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("EvidenceIndex.addFields() makes a value evidence exactly when its tokens are a whole field's", () => {
  fc.assert(
    fc.property(
      fc.array(textArb, { minLength: 1, maxLength: 6 }),
      textArb,
      fc.integer({ min: 0, max: 3 }),
      (fields, value, rank) => {
        const index = new EvidenceIndex();
        index.addFields(7, fields, rank);
        const words = tokenize(value).join(" ");
        const whole = fields.some((field) => tokenize(field).join(" ") === words);
        assert.deepEqual(index.find(value), whole ? [{ sourceId: 7, kind: "field" }] : []);
        assert.equal(index.vouch(value, () => true, rank).sourceId, whole ? 7 : undefined);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("EvidenceIndex look-ups asked between additions answer as an index asked only once", () => {
  // The index remembers recent look-ups: a remembered answer must never outlive a source that changes it.
  const stepArb = fc.oneof(
    fc.record({ add: textArb, rank: fc.integer({ min: 0, max: 2 }) }),
    fc.record({ ask: textArb, minRank: fc.integer({ min: 0, max: 2 }) }),
  );
  fc.assert(
    fc.property(fc.array(stepArb, { maxLength: 30 }), (steps) => {
      const index = new EvidenceIndex();
      const added: { text: string; rank: number }[] = [];
      for (const step of steps) {
        if ("add" in step) {
          index.addText(added.length, step.add, step.rank);
          added.push({ text: step.add, rank: step.rank });
          continue;
        }
        const fresh = new EvidenceIndex();
        added.forEach((source, id) => fresh.addText(id, source.text, source.rank));
        assert.deepEqual(index.find(step.ask), fresh.find(step.ask));
        assert.deepEqual(
          index.vouch(step.ask, () => true, step.minRank),
          fresh.vouch(step.ask, () => true, step.minRank),
        );
        assert.deepEqual([...index.sources(step.ask)], [...fresh.sources(step.ask)]);
      }
    }),
    { numRuns: 300 },
  );
});
