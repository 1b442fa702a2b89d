/**
 * The lines of a JSON Lines log, each checked and parsed once: blank lines
 * skipped, a byte-order mark and `\r` line ends tolerated, the shape checked
 * (depth, repeated keys) before the parser walks it, and a line that is not
 * JSON a `TraceError` naming the file and line.
 *
 * @module
 */
import { errorText } from "../../core/mod.ts";
import { checkJsonShape } from "./json_shape.ts";
import { traceFailure } from "./read_json_log.ts";
import { parseJson } from "../json/mod.ts";

/** One parsed line: its value and where it was (`file:line`). */
export interface JsonLine {
  /** The parsed value. */
  readonly value: unknown;
  /** `source:line`, for messages. */
  readonly where: string;
}

/**
 * The parsed lines of `text`, in order. `fix` says how a good log looks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonLines } from "./json_lines.ts";
 * assert.deepEqual([...jsonLines('{"a":1}\n\n[2]\r\n', "log.jsonl", "one object a line")], [
 *   { value: { a: 1 }, where: "log.jsonl:1" },
 *   { value: [2], where: "log.jsonl:3" },
 * ]);
 * assert.throws(() => [...jsonLines("{", "log.jsonl", "one object a line")], { code: "ERR_TRACE_INVALID" });
 * ```
 */
export function* jsonLines(text: string, source: string, fix: string): Generator<JsonLine> {
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, "");
    if (!line.trim()) continue;
    const where = `${source}:${i + 1}`;
    checkJsonShape(line, source, i + 1);
    let value: unknown;
    try {
      value = parseJson(line);
    } catch (error) {
      throw traceFailure(where, `the line is not valid JSON (${errorText(error)})`, fix);
    }
    yield { value, where };
  }
}
