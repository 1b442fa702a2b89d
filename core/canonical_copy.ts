/**
 * One walk over a value that gives both a deeply frozen plain-data copy and
 * its canonical JSON text, reading each property of the original exactly once.
 *
 * Why one walk: a tool call's arguments are copied (so the caller cannot change
 * them after the decision) and fingerprinted (sha256 of their canonical JSON).
 * Copying with `structuredClone` and then serialising the copy walked the value
 * twice and allocated it three times; reading each property once also means a
 * getter or a Proxy trap cannot show the copy one value and the fingerprint
 * another: both come from the same read.
 *
 * @module
 */

/** A value's frozen copy and its canonical JSON text. */
export interface CanonicalCopy {
  /** A deep copy with every object and array frozen; `undefined` entries and array holes are kept. */
  readonly value: unknown;
  /** The copy's canonical JSON, exactly as {@linkcode canonicalJson} writes it. */
  readonly json: string;
}

/** How deep a value may nest: deeper values are refused rather than left to overflow the stack. */
export const COPY_DEPTH_LIMIT = 2048;

/** The longest array copied: a sparse array claiming more items is refused rather than walked hole by hole. */
export const COPY_LENGTH_LIMIT = 1 << 24;

/**
 * Copy plain data and write its canonical JSON in one walk: object keys in the
 * order an object made from the sorted keys lists them (array-index keys in
 * numeric order first, then the others sorted by UTF-16 code units), no
 * insignificant space, a `bigint` or a non-finite number as its text in
 * quotes, `undefined` dropped from objects and written as `null` in arrays (so
 * is a hole). The text equals `canonicalJson(value)` whenever the copy succeeds.
 *
 * Throws `TypeError` for anything that is not plain data, and so would not
 * survive the copy faithfully or could change afterwards. A value that
 * contains itself, or an object whose prototype is neither `Object.prototype`
 * nor `null` (a `Date`, `Map`, boxed primitive, typed array or class
 * instance), gets canonicalJson's own message (`Cannot serialise ...`); a
 * function, a symbol, nesting deeper than {@linkcode COPY_DEPTH_LIMIT} or an
 * array longer than {@linkcode COPY_LENGTH_LIMIT} get a message naming where
 * (`The value at to.cb is a function ...`). A getter or Proxy trap that
 * throws throws through. A Proxy over plain data is read like the data it shows, once per
 * property (pure JavaScript cannot tell a Proxy apart).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalCopy } from "./canonical_copy.ts";
 * const args = { to: ["a@corp.example"], amount: 5n, b: undefined };
 * const { value, json } = canonicalCopy(args);
 * assert.equal(json, '{"amount":"5","to":["a@corp.example"]}');
 * assert.deepEqual(value, args);
 * assert.notEqual((value as typeof args).to, args.to);
 * assert.equal(Object.isFrozen((value as typeof args).to), true);
 * assert.throws(() => canonicalCopy({ when: new Date(0) }), TypeError);
 * ```
 */
export function canonicalCopy(value: unknown): CanonicalCopy {
  const walk = new CopyWalk(true);
  const copy = walk.copy(value, 0, "");
  return { value: copy, json: walk.json ?? "undefined" };
}

/** The walk's state: the ancestors of the value being copied, and the last value's canonical text. */
export class CopyWalk {
  /** The canonical text of the value copied last; `undefined` for `undefined` (dropped from objects). */
  json: string | undefined = undefined;
  readonly #ancestors = new Set<object>();
  /** Whether functions, symbols and values beyond the copy limits are refused (a copy) or left out (a text only). */
  readonly #strict: boolean;

  constructor(strict: boolean) {
    this.#strict = strict;
  }

  copy(value: unknown, depth: number, path: string): unknown {
    switch (typeof value) {
      case "string":
        this.json = JSON.stringify(value);
        return value;
      case "number":
        // JSON.stringify writes a finite number as String() does (-0 as 0); canonicalJson quotes the others.
        this.json = Number.isFinite(value) ? String(value) : `"${value}"`;
        return value;
      case "boolean":
        this.json = value ? "true" : "false";
        return value;
      case "bigint":
        this.json = `"${value}"`;
        return value;
      case "undefined":
        this.json = undefined;
        return value;
      case "object":
        if (value === null) {
          this.json = "null";
          return value;
        }
        return this.#object(value, depth, path);
      default:
        this.json = undefined;
        if (!this.#strict) return undefined;
        throw new TypeError(`${where(path)}is a ${typeof value}, which cannot be copied: expected plain JSON data`);
    }
  }

  #object(value: object, depth: number, path: string): unknown {
    if (this.#strict && depth >= COPY_DEPTH_LIMIT) {
      throw new TypeError(`${where(path)}nests more than ${COPY_DEPTH_LIMIT} levels deep`);
    }
    // canonicalJson walks too (not strict): it refuses these values with the same messages.
    if (this.#ancestors.has(value)) throw new TypeError("Cannot serialise a value that contains itself");
    const isArray = Array.isArray(value);
    if (!isArray) {
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) {
        throw new TypeError(`Cannot serialise a ${constructorName(value)} object: expected plain JSON data`);
      }
    }
    this.#ancestors.add(value);
    try {
      return isArray ? this.#array(value as unknown[], depth, path) : this.#record(value, depth, path);
    } finally {
      this.#ancestors.delete(value);
    }
  }

  #array(value: unknown[], depth: number, path: string): readonly unknown[] {
    const length = value.length;
    if (this.#strict && length > COPY_LENGTH_LIMIT) {
      throw new TypeError(`${where(path)}is an array of ${length} items: at most ${COPY_LENGTH_LIMIT} are copied`);
    }
    const copy: unknown[] = new Array(length);
    let json = "[";
    for (let i = 0; i < length; i++) {
      const item = value[i];
      if (i) json += ",";
      if (item === undefined) {
        // A hole stays a hole, as structuredClone keeps it; both are null in the text.
        if (i in value) copy[i] = undefined;
        json += "null";
        continue;
      }
      copy[i] = this.copy(item, depth + 1, `${path}[${i}]`);
      json += this.json ?? "null";
    }
    this.json = json + "]";
    return Object.freeze(copy);
  }

  #record(value: object, depth: number, path: string): Readonly<Record<string, unknown>> {
    const keys = Object.keys(value);
    const copy: Record<string, unknown> = {};
    const texts: Array<string | undefined> = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const item = this.copy((value as Record<string, unknown>)[key], depth + 1, path ? `${path}.${key}` : key);
      texts[i] = this.json;
      // An own key named "__proto__" stays an ordinary key instead of setting the copy's prototype.
      if (key === "__proto__") {
        Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
      } else copy[key] = item;
    }
    let json = "{";
    for (const i of canonicalOrder(keys)) {
      const text = texts[i];
      if (text === undefined) continue;
      if (json.length > 1) json += ",";
      json += `${JSON.stringify(keys[i])}:${text}`;
    }
    this.json = json + "}";
    return Object.freeze(copy);
  }
}

function constructorName(value: object): string {
  try {
    return String((value as { constructor?: { name?: unknown } }).constructor?.name ?? "non-plain");
  } catch {
    return "non-plain";
  }
}

function where(path: string): string {
  return path ? `The value at ${path} ` : "The value ";
}

/**
 * The positions of `keys` in the order `JSON.stringify` lists an object whose keys were added in sorted order:
 * array-index keys first, in numeric order, then the other keys in sorted order.
 */
function canonicalOrder(keys: readonly string[]): number[] {
  const order = new Array<number>(keys.length);
  for (let i = 0; i < keys.length; i++) order[i] = i;
  if (keys.length < 2) return order;
  return order.sort((a, b) => compareKeys(keys[a], keys[b]));
}

function compareKeys(a: string, b: string): number {
  const indexA = arrayIndex(a);
  const indexB = arrayIndex(b);
  if (indexA >= 0 || indexB >= 0) {
    if (indexA < 0) return 1;
    if (indexB < 0) return -1;
    return indexA - indexB;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The key as an array index (a canonical whole number below 2^32 - 1), or -1. */
function arrayIndex(key: string): number {
  const length = key.length;
  if (length === 0 || length > 10) return -1;
  const first = key.charCodeAt(0);
  if (first < 48 || first > 57 || (first === 48 && length > 1)) return -1;
  let index = 0;
  for (let i = 0; i < length; i++) {
    const code = key.charCodeAt(i);
    if (code < 48 || code > 57) return -1;
    index = index * 10 + (code - 48);
  }
  return index <= 4294967294 ? index : -1;
}
