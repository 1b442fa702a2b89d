/**
 * Values that stress canonical JSON, for property tests: plain data with keys that test order and escapes, and the
 * values canonicalJson writes specially (undefined, holes, bigint, NaN, ±Infinity, -0, 1e21).
 */
import fc from "fast-check";
import { ownDataObject } from "./_own_object.ts";

/** Keys that stress order and escapes: array indices and near-indices, prototype names, lone surrogates, controls. */
export const KEY: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.string({ unit: "binary", maxLength: 4 }),
  fc.nat().map(String),
  fc.constantFrom("__proto__", "constructor", "toJSON", "", "0", "1", "9", "10", "01", "-0", "-1", "1.5", "1e3"),
  fc.constantFrom("4294967294", "4294967295", "4294967296", "\\", '"', "\ud800", "a\udc00", "\u0007", "\u2028"),
);

/** Plain data and what canonicalJson writes specially: undefined, holes, bigint, NaN, ±Infinity, -0, 1e21. */
export const { value: VALUE }: { value: fc.Arbitrary<unknown> } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    fc.string({ unit: "binary", maxLength: 8 }),
    fc.constantFrom("\ud800", "\udfff\ud800", "é€😀", "\u0000", '"\\'),
    fc.double(),
    fc.constantFrom(-0, 1e21, 1e-7, 5e-324, NaN, Infinity, -Infinity, 2 ** 53 + 2),
    fc.integer(),
    fc.bigInt(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.sparseArray(tie("value"), { maxLength: 5 }),
    tie("object"),
  ),
  object: fc.tuple(fc.array(fc.tuple(KEY, tie("value")), { maxLength: 5 }), fc.boolean()).map(([entries, bare]) =>
    ownDataObject(entries, bare)
  ),
}));
