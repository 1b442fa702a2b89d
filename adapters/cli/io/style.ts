/**
 * Colour for terminal output: on only when stdout is a terminal and
 * `NO_COLOR` is not set.
 *
 * @module
 */
import type { Io } from "./io.ts";

/**
 * Functions that wrap text in ANSI colours, or leave it as is when colour is off.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type Style, styleFor } from "./style.ts";
 * const style: Style = styleFor({ isTerminal: true, noColor: false });
 * assert.equal(style.red("BLOCK"), "\x1b[31mBLOCK\x1b[39m");
 * ```
 */
export interface Style {
  /** Whether colour is on. */
  readonly color: boolean;
  /** Bold text. */
  bold(text: string): string;
  /** Red text: something bad happened, or was blocked. */
  red(text: string): string;
  /** Yellow text: something needs the user. */
  yellow(text: string): string;
  /** Green text: something good happened, or was allowed. */
  green(text: string): string;
}

/**
 * The style for an Io: colour only when stdout is a terminal and `NO_COLOR` is not set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { styleFor } from "./style.ts";
 * import { memoryIo } from "./memory_io.ts";
 * assert.deepEqual(styleFor(memoryIo().io).red("BLOCK"), "BLOCK");
 * ```
 */
export function styleFor(io: Pick<Io, "isTerminal" | "noColor">): Style {
  const color = io.isTerminal && !io.noColor;
  const wrap = (open: number, close: number) => (text: string) => color ? `\x1b[${open}m${text}\x1b[${close}m` : text;
  return { color, bold: wrap(1, 22), red: wrap(31, 39), yellow: wrap(33, 39), green: wrap(32, 39) };
}
