/**
 * The words of an argument's or a tool's name, as the guard's name rules read
 * them: `start_date`, `fileName`, `search-emails` and `meta.owner` are split
 * into lower-cased words.
 *
 * @module
 */

/**
 * The lower-cased words of a name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nameWords } from "./name_words.ts";
 * assert.deepEqual(nameWords("recipientEmail"), ["recipient", "email"]);
 * assert.deepEqual(nameWords("search_calendar-events"), ["search", "calendar", "events"]);
 * assert.deepEqual(nameWords("__"), []);
 * ```
 */
export function nameWords(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().split(/[_\-\s.]+/).filter(Boolean);
}
