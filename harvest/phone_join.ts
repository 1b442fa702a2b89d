/**
 * The scanner's fast path for an international phone number written in
 * groups (`+1 555 0103`, `+41 44 668 18 00`, `+44-20 7946.0018`): the words
 * are read where they stand, with no window, no stripped copies and no regular
 * expressions. It gives exactly what the full grammar's join gives (the
 * longest run of up to six following groups that reads as a phone number) and
 * declines (returns -1) whenever the full grammar could read the words
 * otherwise: a first word with brackets or closing marks, or no join that
 * reads as a phone number.
 *
 * @module
 */
import type { TokenSink } from "./scan_links.ts";
import { balanced, isCloser } from "./scan_links.ts";
import { charKind, wordEnd } from "./word_window.ts";

/** How many groups may follow the first word, as the full grammar joins them. */
const MAX_GROUPS = 6;

/** Where each following group's core ends, where its word ends, and how many digits the join has after it. */
const coreEnds: number[] = [];
const wordEnds: number[] = [];
const digitCounts: number[] = [];

/**
 * Scan the word `text[start, end)`, which starts with `+`, and the groups after it as one phone number; returns where
 * the last group's word ends, or -1 when the full grammar must read the word.
 */
export function scanPhoneJoin(text: string, start: number, end: number, sink: TokenSink): number {
  // The first word: `+`, a digit, then digits with at most one `-` or `.` between two (what the phone grammar takes
  // before a space, brackets aside), and nothing after it.
  let digits = 0;
  for (let k = start + 1; k < end; k++) {
    const code = text.charCodeAt(k);
    if (isDigit(code)) digits++;
    else if ((code !== 45 && code !== 46) || k === start + 1 || !isDigit(text.charCodeAt(k + 1)) || k + 1 >= end) {
      return -1;
    }
  }
  if (digits === 0) return -1;
  let groups = 0;
  for (let from = end; groups < MAX_GROUPS;) {
    while (from < text.length && charKind(text.charCodeAt(from)) === 1) from++;
    if (from >= text.length || !isDigit(text.charCodeAt(from))) break;
    const wordStop = wordEnd(text, from);
    let coreEnd = wordStop;
    while (coreEnd > from && isCloser(text.charCodeAt(coreEnd - 1))) {
      if (text.charCodeAt(coreEnd - 1) === 41 && balanced(text, from, coreEnd)) break;
      coreEnd--;
    }
    const read = groupDigits(text, from, coreEnd);
    if (read < 0) break;
    // A group the phone grammar's join takes but cannot read (a `)` in it) ends the numbers that can be read.
    digits = read === 0 || digits < 0 ? -1 : digits + read;
    coreEnds[groups] = coreEnd;
    wordEnds[groups] = wordStop;
    digitCounts[groups++] = digits;
    if (coreEnd !== wordStop) break;
    from = wordStop;
  }
  let n = groups;
  while (n > 0 && (digitCounts[n - 1] < 7 || digitCounts[n - 1] > 15)) n--;
  if (n === 0) return -1;
  // The text is the words joined by single spaces (most often what was written: one slice), the number its digits.
  let raw: string | undefined;
  let number = `tel:+${digitsOf(text, start + 1, end)}`;
  let from = end;
  for (let g = 0; g < n; g++) {
    const gap = from;
    while (charKind(text.charCodeAt(from)) === 1) from++;
    if (raw === undefined && (from !== gap + 1 || text.charCodeAt(gap) !== 32)) {
      raw = text.slice(start, g === 0 ? end : coreEnds[g - 1]);
    }
    if (raw !== undefined) raw += ` ${text.slice(from, coreEnds[g])}`;
    number += digitsOf(text, from, coreEnds[g]);
    from = wordEnds[g];
  }
  raw ??= text.slice(start, coreEnds[n - 1]);
  sink(number, raw);
  for (let k = coreEnds[n - 1]; k < wordEnds[n - 1]; k++) sink(text[k]);
  return wordEnds[n - 1];
}

/**
 * How many digits the group `text[from, to)` has, when it starts with a digit and is what the join takes: digits in
 * runs of one to five with one `-` or `.` between runs, and maybe a `)` after the first run. 0 when it has that `)`
 * (the join takes it, but the phone grammar reads no number with it); -1 when the join does not take it.
 */
function groupDigits(text: string, from: number, to: number): number {
  let k = from;
  let digits = 0;
  let bracket = false;
  for (let runs = 0; k < to || runs === 0; runs++) {
    if (runs > 0) {
      const code = text.charCodeAt(k);
      if (runs === 1 && code === 41 && !bracket) {
        bracket = true;
        k++;
        runs--;
        continue;
      }
      if (code !== 45 && code !== 46) return -1;
      k++;
    }
    const run = k;
    while (k < to && k - run < 6 && isDigit(text.charCodeAt(k))) k++;
    if (k === run || k - run > 5) return -1;
    digits += k - run;
  }
  return bracket ? 0 : digits;
}

/** The digits of `text[start, end)`, which holds digits, `-`, `.` and `)` only. */
function digitsOf(text: string, start: number, end: number): string {
  let digits = "";
  let done = start;
  for (let k = start; k < end; k++) {
    if (isDigit(text.charCodeAt(k))) continue;
    digits += text.slice(done, k);
    done = k + 1;
  }
  return done === start ? text.slice(start, end) : digits + text.slice(done, end);
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
