/**
 * The shortcuts that cut Guard.decide's fixed cost give the answers of the definitions they replace: each
 * definition is written out here as it was, and compared on random input.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { type Label, makeLabel, meet, meetPartial, type PartialLabel, TRUST_LEVELS } from "../core/mod.ts";
import { isDestinationName } from "../guard/mod.ts";
import { firstSources } from "../guard/first_sources.ts";
import { DESTINATION_WORDS } from "../guard/outward.ts";
import { EvidenceIndex } from "../harvest/mod.ts";

/** isDestinationName as it was: split at `_`, `-`, spaces and lower-to-upper changes, then look at the last word. */
function destinationByWords(name: string): boolean {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().split(/[_\-\s]+/).filter(Boolean);
  return words.length > 0 && DESTINATION_WORDS.has(words[words.length - 1]);
}

/** meetPartial as it was: meet the known parts, join, de-duplicate and sort the unknown ones. */
function meetByDefinition(a: PartialLabel, b: PartialLabel): PartialLabel {
  const other = new Set(b.known.readers);
  return {
    known: makeLabel(a.known.readers.filter((reader) => other.has(reader)), lowerTrust(a.known.trust, b.known.trust)),
    unknown: [...new Set([...a.unknown, ...b.unknown])].sort(),
  };
}

function lowerTrust(a: Label["trust"], b: Label["trust"]): Label["trust"] {
  return TRUST_LEVELS.indexOf(a) <= TRUST_LEVELS.indexOf(b) ? a : b;
}

Deno.test("isDestinationName() answers as splitting the name into words does, for any name", () => {
  const word = fc.oneof(
    fc.constantFrom(...DESTINATION_WORDS, "id", "body", "sender", "Email", "URL", "To", "İ", "ß"),
    fc.string({ maxLength: 6 }),
  );
  const name = fc.array(fc.tuple(word, fc.constantFrom("", "_", "-", " ", "\u00a0", "\n", "__")), { maxLength: 4 })
    .map((parts) => parts.map(([w, separator]) => w + separator).join(""));
  fc.assert(
    fc.property(fc.oneof(name, fc.string({ unit: "binary", maxLength: 10 })), (value) => {
      assert.equal(isDestinationName(value), destinationByWords(value), JSON.stringify(value));
    }),
    { numRuns: 5000 },
  );
});

Deno.test("meetPartial() equals the meet of the known parts and the sorted join of the unknown ones, frozen", () => {
  const groups = fc.subarray(["finance", "hr", "public", "staff"]);
  const label = fc.tuple(groups, fc.constantFrom(...TRUST_LEVELS)).map(([readers, trust]) => makeLabel(readers, trust));
  const tools = fc.array(fc.constantFrom("a_tool", "b_tool", "wiki", "Web", "z"), { maxLength: 3 });
  const partial = fc.tuple(label, tools, fc.constantFrom("sorted", "raw", "frozen-raw")).map(([known, unknown, how]) =>
    ({
      known,
      unknown: how === "sorted"
        ? Object.freeze([...new Set(unknown)].sort())
        : how === "frozen-raw"
        ? Object.freeze([...unknown])
        : unknown,
    }) as PartialLabel
  );
  fc.assert(
    fc.property(partial, partial, partial, (a, b, c) => {
      const met = meetPartial(a, b);
      assert.deepEqual(met, meetByDefinition(a, b));
      assert.ok(Object.isFrozen(met) && Object.isFrozen(met.unknown) && Object.isFrozen(met.known));
      // Again, now that meets are remembered, and chained as a running label is.
      assert.deepEqual(meetPartial(a, b), met);
      assert.deepEqual(meetPartial(met, c), meetByDefinition(meetByDefinition(a, b), c));
    }),
    { numRuns: 3000 },
  );
});

Deno.test("meet() of labels that are not frozen is computed afresh each time", () => {
  const readers = ["hr", "staff"];
  const open = { readers, trust: "trusted" as const };
  const staff = makeLabel(["staff", "hr"], "trusted");
  assert.deepEqual(meet(open, staff).readers, ["hr", "staff"]);
  readers.pop();
  assert.deepEqual(meet(open, staff).readers, ["hr"]);
});

/** Gate 1's named sources as they were: the index's generator, up to `limit`, stopping below a vouching rank. */
function firstSourcesByGenerator(
  index: EvidenceIndex,
  value: string,
  minRank: number,
  limit: number,
  rankOf: (source: number) => number,
): number[] {
  const named: number[] = [];
  let vouched = false;
  for (const id of index.sources(value)) {
    if (rankOf(id) >= minRank) vouched = true;
    else if (vouched) break;
    named.push(id);
    if (named.length === limit) break;
  }
  return named;
}

Deno.test("firstSources() names the sources the index's generator yields, in its order, for any index and value", () => {
  const WORDS = ["dana@corp.example", "eve@x.example", "pay", "120", "bob"];
  const source = fc.record({
    rank: fc.constantFrom(0, 0, 1, 2, 5),
    text: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }).map((words) => words.join(" ")),
    fields: fc.boolean(),
  });
  fc.assert(
    fc.property(
      fc.array(source, { maxLength: 30 }),
      fc.array(source, { maxLength: 10 }),
      fc.constantFrom(...WORDS, "dana@corp.example pay", "120 bob", "nobody"),
      fc.constantFrom(0, 1, 2, 3),
      fc.integer({ min: 1, max: 8 }),
      (sources, childSources, value, minRank, limit) => {
        const parent = new EvidenceIndex();
        const ranks: number[] = [];
        const add = (index: EvidenceIndex, { rank, text, fields }: { rank: number; text: string; fields: boolean }) => {
          const id = ranks.push(rank) - 1;
          if (fields) index.addFields(id, text.split(" "), rank);
          else index.addText(id, text, rank);
        };
        sources.forEach((item) => add(parent, item));
        const child = parent.fork();
        childSources.forEach((item) => add(child, item));
        const rankOf = (id: number) => ranks[id];
        for (const index of [parent, child]) {
          assert.deepEqual(
            firstSources(index, value, minRank, limit, rankOf),
            firstSourcesByGenerator(index, value, minRank, limit, rankOf),
          );
        }
      },
    ),
    { numRuns: 2000 },
  );
});
