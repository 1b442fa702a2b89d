/**
 * A deeply frozen plain-data copy of a value and its canonical JSON text,
 * reading each property of the original exactly once.
 *
 * Why once: a tool call's arguments are copied (so the caller cannot change
 * them after the decision) and fingerprinted (sha256 of their canonical JSON).
 * The text is written from the copy (this walk's own frozen data, with no
 * getter or trap left), so a getter or a Proxy trap cannot show the copy one
 * value and the fingerprint another: both come from the same read.
 *
 * @module
 */
import { jsonText, refusePlain } from "./canonical_json.ts";

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
 * Copy plain data and write the copy's canonical JSON: object keys in the
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
  const copy = new CopyWalk().copy(value, 0, "");
  // The copy is this walk's own frozen plain data: its text is the original's as read once.
  return { value: copy, json: jsonText(copy, []) ?? "undefined" };
}

/** The walk's state: the ancestors of the value being copied. */
class CopyWalk {
  readonly #ancestors = new Set<object>();

  copy(value: unknown, depth: number, path: string): unknown {
    if (typeof value === "function" || typeof value === "symbol") {
      throw new TypeError(`${where(path)}is a ${typeof value}, which cannot be copied: expected plain JSON data`);
    }
    if (typeof value !== "object" || value === null) return value;
    if (depth >= COPY_DEPTH_LIMIT) throw new TypeError(`${where(path)}nests more than ${COPY_DEPTH_LIMIT} levels deep`);
    const isArray = refusePlain(value, this.#ancestors);
    this.#ancestors.add(value);
    try {
      return isArray ? this.#array(value as unknown[], depth, path) : this.#record(value, depth, path);
    } finally {
      this.#ancestors.delete(value);
    }
  }

  #array(value: unknown[], depth: number, path: string): readonly unknown[] {
    const length = value.length;
    if (length > COPY_LENGTH_LIMIT) {
      throw new TypeError(`${where(path)}is an array of ${length} items: at most ${COPY_LENGTH_LIMIT} are copied`);
    }
    const copy: unknown[] = new Array(length);
    for (let i = 0; i < length; i++) {
      const item = value[i];
      // A hole stays a hole, as structuredClone keeps it.
      if (item !== undefined || i in value) copy[i] = this.copy(item, depth + 1, `${path}[${i}]`);
    }
    return Object.freeze(copy);
  }

  #record(value: object, depth: number, path: string): Readonly<Record<string, unknown>> {
    // Made from entries, an own key named "__proto__" stays an ordinary key instead of setting the copy's prototype.
    return Object.freeze(Object.fromEntries(
      Object.keys(value).map((key) => [
        key,
        this.copy((value as Record<string, unknown>)[key], depth + 1, path ? `${path}.${key}` : key),
      ]),
    ));
  }
}

function where(path: string): string {
  return path ? `The value at ${path} ` : "The value ";
}
