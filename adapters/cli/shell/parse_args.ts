/**
 * A small, strict command-line parser: `--name value`, `--name=value`,
 * boolean `--flag`, short aliases (`-p FILE`), and `--` to end options.
 *
 * @module
 */
import { UsageError } from "./cli_error.ts";
import { closestWord } from "../../../core/mod.ts";

/**
 * One option a command accepts.
 *
 * @example
 * ```ts
 * import type { OptionSpec } from "./parse_args.ts";
 * const policy: OptionSpec = { type: "string", short: "p" };
 * ```
 */
export interface OptionSpec {
  /** `boolean` flags take no value; `string` options take exactly one; `integer` options a whole number >= 0. */
  readonly type: "boolean" | "string" | "integer";
  /** A one-letter alias, such as `p` for `-p`. */
  readonly short?: string;
}

/**
 * What {@linkcode parseArgs} found.
 *
 * @example
 * ```ts
 * import type { ParsedArgs } from "./parse_args.ts";
 * const parsed: ParsedArgs = { values: { json: true }, positionals: ["trace.jsonl"] };
 * ```
 */
export interface ParsedArgs {
  /** Option values by name: `true` for flags given, the text of string options, the number of integer options. */
  readonly values: Readonly<Record<string, string | boolean | number | undefined>>;
  /** Everything that is not an option, in order. */
  readonly positionals: readonly string[];
}

/**
 * Parse `args` against `options`. Throws {@linkcode UsageError} for an unknown
 * option (suggesting the closest one), a missing or malformed value, a value
 * given to a flag, or an option given twice. With `restAfterFirst`, everything
 * from the first positional on is kept as is (for `pab bench NAME ...`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseArgs } from "./parse_args.ts";
 * const parsed = parseArgs(["--policy", "p.yaml", "a.jsonl", "--json"], {
 *   policy: { type: "string", short: "p" },
 *   json: { type: "boolean" },
 * }, "check");
 * assert.deepEqual(parsed, { values: { policy: "p.yaml", json: true }, positionals: ["a.jsonl"] });
 * assert.throws(() => parseArgs(["--jsn"], { json: { type: "boolean" } }, "check"), /did you mean --json\?/);
 * ```
 */
export function parseArgs(
  args: readonly string[],
  options: Readonly<Record<string, OptionSpec>>,
  command: string,
  restAfterFirst = false,
): ParsedArgs {
  const values: Record<string, string | boolean | number | undefined> = {};
  const positionals: string[] = [];
  const shorts = new Map(Object.entries(options).flatMap(([name, spec]) => spec.short ? [[spec.short, name]] : []));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      if (restAfterFirst) {
        positionals.push(...args.slice(i));
        break;
      }
      positionals.push(arg);
      continue;
    }
    const long = arg.startsWith("--");
    const [word, inline] = long ? splitOnce(arg.slice(2)) : [arg.slice(1), undefined];
    const name = long ? word : shorts.get(word);
    const shown = long ? `--${word}` : `-${word}`;
    if (name === undefined || !Object.hasOwn(options, name)) {
      const guess = closestWord(word, Object.keys(options));
      throw new UsageError(`unknown option ${shown}${guess ? ` (did you mean --${guess}?)` : ""}`, command);
    }
    const spec = options[name];
    if (values[name] !== undefined) throw new UsageError(`option --${name} is given twice`, command);
    if (spec.type === "boolean") {
      if (inline !== undefined) throw new UsageError(`option --${name} takes no value`, command);
      values[name] = true;
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined || (inline === undefined && value.startsWith("-") && value !== "-")) {
      throw new UsageError(`option ${shown} needs a value`, command);
    }
    if (spec.type === "integer") {
      if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
        throw new UsageError(`option --${name} needs a whole number, got "${value}"`, command);
      }
      values[name] = Number(value);
    } else values[name] = value;
  }
  return { values, positionals };
}

function splitOnce(text: string): [string, string | undefined] {
  const at = text.indexOf("=");
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
