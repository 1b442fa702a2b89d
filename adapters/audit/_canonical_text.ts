import { canonicalJson } from "../../core/mod.ts";

// An audit event's canonical JSON is written once per record, and core's walk builds it piece by piece (a text per
// key and per value, joined): for a decision (about 900 characters) that is most of linking its record, and a few
// kilobytes of garbage. The runtime's own JSON.stringify writes the same text from a copy whose keys were added in
// sorted order (canonicalJson's definition, pinned by tests/canonical_text_properties_test.ts), in one pass into one
// string. Anything the copy cannot stand for as plain data goes to canonicalJson itself, which answers or refuses.

/** Deeper than this, the copy gives up and canonicalJson walks the value (a cycle ends here too). */
const DEEPEST = 200;

/** What a copy gives back when canonicalJson must write the value. */
const REFUSED: unique symbol = Symbol("refused");

/**
 * `canonicalJson(value)`, written by `JSON.stringify` from a copy of `value` with every object's keys added in
 * sorted order: the same text for plain data (each property is read once, in sorted key order); a value the copy
 * cannot stand for (an object that is not plain data, a cycle, nesting deeper than {@linkcode DEEPEST}, or
 * `toJSON` on the prototypes every copy inherits) is written, or refused, by `canonicalJson` itself.
 */
export function canonicalText(value: unknown): string | undefined {
  if ("toJSON" in Object.prototype || "toJSON" in Array.prototype) return canonicalJson(value);
  const copy = sortedCopy(value, 0);
  return copy === REFUSED ? canonicalJson(value) : JSON.stringify(copy);
}

/** A copy JSON.stringify writes as canonicalJson writes `value` (`undefined` for what an object leaves out). */
function sortedCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      // canonicalJson writes a non-finite number as its text in quotes, and a bigint too.
      return Number.isFinite(value) ? value : `${value}`;
    case "bigint":
      return `${value}`;
    case "object":
      if (value === null) return null;
      break;
    default:
      return undefined;
  }
  if (depth > DEEPEST) return REFUSED;
  if (Array.isArray(value)) {
    const length = value.length;
    const items = new Array(length);
    for (let i = 0; i < length; i++) {
      const item = sortedCopy(value[i], depth + 1);
      if (item === REFUSED) return REFUSED;
      // A hole, or what an array cannot hold, is undefined here: JSON.stringify writes null, as canonicalJson does.
      items[i] = item;
    }
    return items;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return REFUSED;
  const keys = Object.keys(value);
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1] > keys[i]) {
      keys.sort();
      break;
    }
  }
  // An ordinary object lists array-index keys first, in numeric order, then the others as added (sorted here): the
  // order canonicalJson writes. A literal, not a null-prototype object: the runtime writes those many times slower.
  const copy: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const item = sortedCopy((value as Record<string, unknown>)[key], depth + 1);
    if (item === REFUSED) return REFUSED;
    if (item === undefined) continue;
    // Where Object.prototype has its `__proto__` setter (Node; Deno leaves it out), setting that key would set the
    // copy's prototype: it is defined as an own property, as JSON.parse makes it.
    if (key === "__proto__") Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true });
    else copy[key] = item;
  }
  return copy;
}
