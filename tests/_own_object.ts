/**
 * An object with `entries` as own data properties, as `JSON.parse` makes them (`__proto__` is an ordinary key), on a
 * null prototype when `bare`: the shape the canonical JSON and copy properties draw their objects in.
 */
export function ownDataObject(
  entries: readonly (readonly [string, unknown])[],
  bare: boolean,
): Record<string, unknown> {
  const object: Record<string, unknown> = bare ? Object.create(null) : {};
  for (const [key, item] of entries) {
    Object.defineProperty(object, key, { value: item, enumerable: true, configurable: true, writable: true });
  }
  return object;
}
