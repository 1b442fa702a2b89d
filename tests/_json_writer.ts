// JSON texts written by hand from a tree of entries, for tests of JSON readers: any key (repeated ones and
// "__proto__" too) and any escape a JSON text may use for a character (\uXXXX in either case, the short escapes,
// "\/"), with optional whitespace between tokens, chosen by a list of numbers the property test draws.
import fc from "fast-check";

/** A JSON value as a text lists it: an object is its entries, in order, repeats included. */
export type JsonTree =
  | null
  | boolean
  | number
  | string
  | { readonly items: readonly JsonTree[] }
  | { readonly entries: readonly (readonly [string, JsonTree])[] };

const SHORT: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "/": "\\/",
};
const SPACE = ["", "", "", " ", "\n", "\t", "\r\n  "];

/**
 * Writes `tree` as JSON, each choice (escape or not, which escape, whitespace) taken in turn from `choices`; with
 * `unicode` false, a character is written as \uXXXX only when it must be escaped and has no short escape.
 */
export function writeJson(tree: JsonTree, choices: readonly number[], unicode = true): string {
  let next = 0;
  const choose = (count: number) => choices.length ? choices[next++ % choices.length] % count : 0;
  const space = () => SPACE[choose(SPACE.length)];
  const string = (text: string) => {
    let out = '"';
    for (const char of text.split("")) {
      const code = char.charCodeAt(0);
      const must = code < 0x20 || char === '"' || char === "\\";
      const how = choose(4);
      if (how === 0 && !must) out += char;
      else if ((how === 1 || !unicode) && SHORT[char]) out += SHORT[char];
      else if (!unicode && !must) out += char;
      else {
        const hex = code.toString(16).padStart(4, "0");
        out += `\\u${how === 2 ? hex.toUpperCase() : hex}`;
      }
    }
    return out + '"';
  };
  const write = (value: JsonTree): string => {
    if (typeof value === "string") return string(value);
    if (value === null || typeof value !== "object") return JSON.stringify(value);
    if ("items" in value) return `[${space()}${value.items.map((item) => write(item) + space()).join(`,${space()}`)}]`;
    return `{${space()}${
      value.entries.map(([key, item]) => `${string(key)}${space()}:${space()}${write(item)}${space()}`).join(
        `,${space()}`,
      )
    }}`;
  };
  return space() + write(tree) + space();
}

/**
 * Keys that make V8's key misread likely: a small pool (so objects share their first keys), keys with a backslash
 * whose text is a prefix of another key's escaped text ("\\u0" of "\\u0041"), quotes, controls, surrogates, and any
 * string.
 */
export const KEY: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("k", "a", "x", "id", "__proto__", "0", "1") },
  {
    weight: 3,
    arbitrary: fc.constantFrom("\\", "\\\\", "x\\", "a\\", "\\u0", "\\u00", "x\\u", "\\n", '\\"', "\\/", "k\\"),
  },
  { weight: 2, arbitrary: fc.constantFrom('"', "/", "A", "xA", "\n", "\t", "é", "😀", "\ud800", "\u2028", "\u0000") },
  {
    weight: 2,
    arbitrary: fc.string({
      unit: fc.constantFrom("a", "x", "\\", '"', "u", "0", "4", "1", "/", "n", "A"),
      maxLength: 6,
    }),
  },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 5 }) },
);

const SCALAR: fc.Arbitrary<JsonTree> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-0, 1e21, 5e-324),
  fc.string({ maxLength: 6 }),
  KEY,
);

/** JSON trees with objects of pooled keys, arrays of objects, and every kind of scalar. */
export const TREE: fc.Arbitrary<JsonTree> = fc.letrec<{ tree: JsonTree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    SCALAR,
    fc.array(tie("tree"), { maxLength: 4 }).map((items) => ({ items })),
    fc.array(fc.tuple(KEY, tie("tree")), { maxLength: 5 }).map((entries) => ({ entries })),
  ),
})).tree;

/** A tree with objects at the top, written with the choices drawn, some texts with no \uXXXX escape that can be spared. */
export const WRITTEN: fc.Arbitrary<string> = fc.tuple(
  fc.oneof(
    fc.array(fc.tuple(KEY, TREE), { minLength: 1, maxLength: 5 }).map((entries): JsonTree => ({ entries })),
    TREE,
  ),
  fc.array(fc.nat(), { maxLength: 24 }),
  fc.boolean(),
).map(([tree, choices, unicode]) => writeJson(tree, choices, unicode));
