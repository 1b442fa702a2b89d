/**
 * The canonical JSON walk as it was before its fast paths (a list of ancestors, no
 * sort for sorted keys): the reference that tests/canonical_json_reference_properties_test.ts compares it with.
 */
export function referenceText(value: unknown, ancestors: Set<object>): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      // JSON.stringify writes a finite number as String() does (-0 as 0).
      return Number.isFinite(value) ? String(value) : `"${value}"`;
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return `"${value}"`;
    case "object":
      if (value !== null) break;
      return "null";
    default:
      return undefined;
  }
  const isArray = refusePlain(value, ancestors);
  ancestors.add(value);
  let json = "[";
  if (isArray) {
    const items = value as unknown[];
    for (let i = 0, length = items.length; i < length; i++) {
      const item = items[i];
      json += `${i ? "," : ""}${item === undefined ? "null" : referenceText(item, ancestors) ?? "null"}`;
    }
    json += "]";
  } else {
    const keys = Object.keys(value);
    json = recordText(keys, keys.map((key) => referenceText((value as Record<string, unknown>)[key], ancestors)));
  }
  ancestors.delete(value);
  return json;
}

/**
 * Whether `value` is an array; throws `TypeError` if it is among `ancestors` (a value that contains itself) or is an
 * object whose prototype is neither `Object.prototype` nor `null` (a `Date`, `Map`, boxed primitive, class instance).
 */
function refusePlain(value: object, ancestors: ReadonlySet<object>): boolean {
  if (ancestors.has(value)) throw new TypeError("Cannot serialise a value that contains itself");
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    let name = "non-plain";
    try {
      name = String((value as { constructor?: { name?: unknown } }).constructor?.name ?? name);
    } catch { /* a throwing getter: the generic name */ }
    throw new TypeError(`Cannot serialise a ${name} object: expected plain JSON data`);
  }
  return false;
}

/**
 * An object's text from its keys and their values' texts (`undefined` ones left out), in the order `JSON.stringify`
 * lists an object whose keys were added in sorted order: array-index keys first, in numeric order, then the others
 * sorted by UTF-16 code units.
 */
function recordText(keys: readonly string[], texts: readonly (string | undefined)[]): string {
  let sorted = true;
  let digits = false;
  for (let i = 0; i < keys.length; i++) {
    if ((keys[i].charCodeAt(0) ^ 48) < 10) digits = true;
    else if (i && keys[i - 1] > keys[i]) sorted = false;
  }
  let order: number[] | undefined;
  if (digits || !sorted) {
    // Array-index keys first, in numeric order; then the others by code units.
    const indices = digits ? keys.map(arrayIndex) : undefined;
    order = [...keys.keys()].sort((a, b) =>
      (indices && (+(indices[a] < 0) - +(indices[b] < 0) || indices[a] - indices[b])) ||
      (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0)
    );
  }
  let json = "{";
  for (let k = 0; k < keys.length; k++) {
    const i = order ? order[k] : k;
    if (texts[i] !== undefined) json += `${json.length > 1 ? "," : ""}${JSON.stringify(keys[i])}:${texts[i]}`;
  }
  return json + "}";
}

/** The key as an array index (a canonical whole number below 2^32 - 1), or -1. */
function arrayIndex(key: string): number {
  return /^(0|[1-9]\d{0,9})$/.test(key) && +key < 4294967295 ? +key : -1;
}
