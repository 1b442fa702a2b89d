/**
 * The two Web APIs the core bundle uses that a bare JavaScript engine (QuickJS
 * compiled to WebAssembly, as `quickjs-emscripten` ships it) does not have,
 * as small pure-JavaScript stand-ins. Install them before the bundle loads.
 *
 * | API | where the core uses it | without it |
 * | --- | --- | --- |
 * | `TextEncoder` | `core/fingerprint.ts`: `sha256Hex` encodes the canonical JSON of every call as UTF-8 | every call is blocked with a `guard-error` gap (`'TextEncoder' is not defined`): the guard fails closed |
 * | `structuredClone` | `guard/guard.ts`: `propose()` hands the tool its own copy of the frozen arguments the call was decided on | decisions still work; every proposed call is blocked with a `guard-error` gap (fail closed) |
 *
 * The core bundle names no other Web API that QuickJS lacks. `tests/quickjs_test.ts`
 * lists every Web API the bundle names that QuickJS lacks and fails when a
 * new one appears.
 *
 * What the stand-ins do, honestly: `TextEncoder.encode` is UTF-8 exactly as
 * the Encoding standard says (a lone surrogate becomes U+FFFD); `encodeInto`
 * and streams are not there. `structuredClone` copies what pab's arguments
 * are (JSON-like data, plus `Date`, `Map`, `Set` and shared or cyclic
 * references) and throws a `DataCloneError`-named `Error` for anything else
 * (functions, symbols, class instances, typed arrays), where the guard then
 * keeps the caller's object as it does in any engine.
 *
 * {@linkcode installQuickJsShims} is shipped to the engine as source text, so
 * it is self-contained.
 *
 * @module
 */

/**
 * Define `TextEncoder` and `structuredClone` on `global` when it lacks them.
 * Returns the names it defined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { installQuickJsShims } from "./quickjs_shims.ts";
 * const bare: Record<string, unknown> = {};
 * assert.deepEqual(installQuickJsShims(bare), ["TextEncoder", "structuredClone"]);
 * const Encoder = bare.TextEncoder as typeof TextEncoder;
 * assert.deepEqual([...new Encoder().encode("é€")], [0xc3, 0xa9, 0xe2, 0x82, 0xac]);
 * const clone = bare.structuredClone as typeof structuredClone;
 * const args = { to: ["a@b.example"], when: new Date(0) };
 * assert.deepEqual(clone(args), args);
 * assert.notEqual(clone(args).to, args.to);
 * assert.deepEqual(installQuickJsShims(globalThis), []); // Deno has both
 * ```
 */
export function installQuickJsShims(global: Record<string, unknown> | typeof globalThis): string[] {
  const target = global as Record<string, unknown>;
  const installed: string[] = [];
  if (typeof target.TextEncoder === "undefined") {
    class Utf8Encoder {
      get encoding(): string {
        return "utf-8";
      }
      encode(input = ""): Uint8Array {
        const text = String(input);
        const bytes: number[] = [];
        for (let i = 0; i < text.length; i++) {
          let code = text.charCodeAt(i);
          if (code >= 0xd800 && code <= 0xdbff) {
            const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
            if (next >= 0xdc00 && next <= 0xdfff) {
              code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
              i++;
            } else code = 0xfffd;
          } else if (code >= 0xdc00 && code <= 0xdfff) code = 0xfffd;
          if (code < 0x80) bytes.push(code);
          else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
          else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
          else {
            bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
          }
        }
        return new Uint8Array(bytes);
      }
    }
    target.TextEncoder = Utf8Encoder;
    installed.push("TextEncoder");
  }
  if (typeof target.structuredClone === "undefined") {
    const cannot = (what: string): never => {
      const error = new Error(`Cannot clone ${what}: this structuredClone copies plain data only`);
      error.name = "DataCloneError";
      throw error;
    };
    const copy = (value: unknown, seen: Map<object, unknown>): unknown => {
      if (typeof value === "function") return cannot("a function");
      if (typeof value === "symbol") return cannot("a symbol");
      if (value === null || typeof value !== "object") return value;
      if (seen.has(value)) return seen.get(value);
      if (value instanceof Date) return new Date(value.getTime());
      if (Array.isArray(value)) {
        const out: unknown[] = [];
        seen.set(value, out);
        for (let i = 0; i < value.length; i++) out[i] = copy(value[i], seen);
        return out;
      }
      if (value instanceof Map) {
        const out = new Map();
        seen.set(value, out);
        for (const [key, item] of value) out.set(copy(key, seen), copy(item, seen));
        return out;
      }
      if (value instanceof Set) {
        const out = new Set();
        seen.set(value, out);
        for (const item of value) out.add(copy(item, seen));
        return out;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return cannot(`an instance of ${proto?.constructor?.name}`);
      const out: Record<string, unknown> = {};
      seen.set(value, out);
      for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key], seen);
      return out;
    };
    target.structuredClone = (value: unknown) => copy(value, new Map());
    installed.push("structuredClone");
  }
  return installed;
}
