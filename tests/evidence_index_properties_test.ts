/** The flat index's early-stopping look-ups agree with the full one, for any sources, ranks and forks. */
import assert from "node:assert/strict";
import fc from "fast-check";
import { EvidenceIndex } from "../harvest/mod.ts";

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
