/**
 * How often V8's JSON.parse misreads a key (V8 issue 521080746, nodejs/node#63785) over texts written to provoke
 * it (tests/_json_writer.ts: pooled keys, keys with backslashes, every escape), after random texts have poisoned
 * it, and how many misreads leave no key with a backslash in what JSON.parse returns (parseJson()'s trigger would
 * miss those: the census must find none).
 *
 * Run: `deno run --import-map=tests/import_map.json --lock=tests/deno.lock --frozen tests/bench/json_misread_census.ts [runs] [seed]`
 *
 * @module
 */
import fc from "fast-check";
import { readJsonByGrammar } from "../../adapters/json/mod.ts";
import { WRITTEN } from "../_json_writer.ts";

function keyWithBackslash(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(keyWithBackslash);
  return Object.entries(value).some(([key, member]) => key.includes("\\") || keyWithBackslash(member));
}

const census = { texts: 0, withBackslash: 0, misreads: 0, missedByTrigger: 0 };
fc.assert(
  fc.property(
    fc.array(WRITTEN, { maxLength: 4 }),
    fc.array(WRITTEN, { minLength: 1, maxLength: 4 }),
    (poisons, texts) => {
      for (const poison of poisons) JSON.parse(poison);
      for (const text of texts) {
        census.texts++;
        if (text.includes("\\")) census.withBackslash++;
        const parsed = JSON.parse(text);
        if (JSON.stringify(parsed) === JSON.stringify(readJsonByGrammar(text))) continue;
        census.misreads++;
        if (!keyWithBackslash(parsed)) census.missedByTrigger++;
      }
    },
  ),
  { numRuns: Number(Deno.args[0] ?? 20_000), seed: Number(Deno.args[1] ?? 1) },
);
console.log(JSON.stringify(census));
