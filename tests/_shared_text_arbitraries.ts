// What the shared-text store tests record: strings around the sharing threshold with any characters (lone surrogates
// and JSON escapes included), and tool outputs that hold them as a whole, in MCP content, or among other fields.
import fc from "fast-check";

/** Strings of 1 to `max + 1` characters repeating a random seed of any code units. */
export function longTexts(max: number): fc.Arbitrary<string> {
  return fc.tuple(fc.string({ unit: "binary", maxLength: 40 }), fc.integer({ min: 0, max })).map((
    [seed, times],
  ) => (seed || "x").repeat(Math.ceil((times + 1) / (seed.length || 1))).slice(0, times + 1));
}

/** Tool outputs carrying `text`: the text itself, MCP content items, or a record beside numbers and nulls. */
export function outputsOf(text: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  return fc.oneof(
    text,
    fc.record({ content: fc.array(fc.record({ type: fc.constant("text"), text }), { maxLength: 3 }) }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(text, fc.integer(), fc.constant(null)), { maxKeys: 4 }),
  );
}
