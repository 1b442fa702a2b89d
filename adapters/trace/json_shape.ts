/**
 * Checks on a JSON text that a JSON parser does not make: how deep it nests
 * and whether an object repeats a key. A log nested 100,000 levels would
 * overflow the stack of whatever walks it later, and a repeated key is read
 * silently as its last copy, so what pab checks could differ from what an
 * agent read: both are coded errors instead.
 *
 * @module
 */
import { positionOf, type TraceError, traceFailure } from "./trace_error.ts";

/** The deepest nesting a trace may have. */
export const MAX_TRACE_DEPTH = 256;

/**
 * Throw `TraceError` (`ERR_TRACE_INVALID`) naming `source`, the line and
 * column, when `text` nests objects and arrays deeper than
 * {@linkcode MAX_TRACE_DEPTH} or an object repeats a key. One pass, no
 * recursion, for any text (it does not check that the text is JSON: the
 * parser does). `firstLine` numbers the text's first line (for one line of a
 * JSONL file).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkJsonShape } from "./json_shape.ts";
 * checkJsonShape('{"messages":[{"a":1},{"a":2}]}', "log.json");
 * assert.throws(
 *   () => checkJsonShape('{"messages":[],\n "messages":[]}', "log.json"),
 *   /Cannot read trace log\.json:2:2: the key "messages" appears twice in one object/,
 * );
 * assert.throws(() => checkJsonShape("[".repeat(300), "t.jsonl", 7), /t\.jsonl:7:257: nested deeper than 256 levels/);
 * ```
 */
export function checkJsonShape(text: string, source: string, firstLine = 1): void {
  // One entry per open container: the keys seen (objects) or null (arrays), and whether a key comes next.
  const keys: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      let escaped = false;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) {
          escaped = true;
          i++;
        } else if (d === 0x22) break;
      }
      const top = keys.length ? keys[keys.length - 1] : null;
      if (top && expectKey) {
        const raw = text.slice(start, i + 1);
        const key = escaped ? decodeKey(raw) : raw.slice(1, -1);
        if (top.has(key)) {
          throw fail(
            text,
            start,
            source,
            firstLine,
            `the key ${JSON.stringify(key)} appears twice in one object`,
            "a JSON reader keeps only one of them, so what pab checks could differ from what the agent read; keep one",
          );
        }
        top.add(key);
        expectKey = false;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      keys.push(c === 0x7b ? new Set() : null);
      expectKey = c === 0x7b;
      if (keys.length > MAX_TRACE_DEPTH) {
        throw fail(
          text,
          i,
          source,
          firstLine,
          `nested deeper than ${MAX_TRACE_DEPTH} levels`,
          "pab reads traces nested at most that deep; flatten the value or leave it out",
        );
      }
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      keys.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      expectKey = keys.length > 0 && keys[keys.length - 1] !== null;
    }
  }
}

function decodeKey(raw: string): string {
  try {
    return JSON.parse(raw);
  } catch {
    return raw; // not a JSON string: the parser will say so
  }
}

function fail(
  text: string,
  offset: number,
  source: string,
  firstLine: number,
  what: string,
  fix: string,
): TraceError {
  const { line, column } = positionOf(text, offset);
  return traceFailure(`${source}:${line + firstLine - 1}:${column}`, what, fix);
}
