/**
 * The scanner's fast path for an international phone number written in
 * groups of digits (`+1 555 0103`, `+41 44 668 18 00`): the words are read
 * where they stand, with no window, no stripped copies and no regular
 * expressions. It gives exactly what the full grammar's join gives (the
 * longest run of up to six following groups of one to five digits that reads
 * as a phone number of 7 to 15 digits) and declines (returns -1) whenever the
 * full grammar could read the words otherwise: a word with anything but digits
 * (a `-`, a bracket), closing marks after the first word, or no such join.
 *
 * @module
 */
import type { TokenSink } from "./scan_links.ts";
import { isCloser } from "./scan_links.ts";
import { charKind, isDigit, isDigits, type PlainSink, wordEnd } from "./word_window.ts";

/** Where each following group starts and ends, and where its word ends. */
const starts: number[] = [];
const ends: number[] = [];
const wordEnds: number[] = [];

/**
 * Scan the word `text[start, end)`, which starts with `+`, and the groups after it as one phone number; returns where
 * the last group's word ends, or -1 when the full grammar must read the words.
 */
export function scanPhoneJoin(text: string, start: number, end: number, sink: TokenSink, plain: PlainSink): number {
  if (end === start + 1 || !isDigits(text, start + 1, end)) return -1;
  let groups = 0;
  let digits = end - start - 1;
  // The digits up to the longest join the phone grammar reads.
  let longest = 0;
  for (let from = end; groups < 6;) {
    while (charKind(text.charCodeAt(from)) === 1) from++;
    // A word that does not start with a digit ends the join, as one with more than five digits does.
    if (!isDigit(text.charCodeAt(from))) break;
    const wordStop = wordEnd(text, from);
    // Its closing marks, as the full grammar strips them: it keeps a final `)` only when a `(` before balances it,
    // and a group with a `(` is declined below.
    let core = wordStop;
    while (isCloser(text.charCodeAt(core - 1))) core--;
    // Anything but digits in the group (`-`, `.`, a bracket, a letter): the full grammar decides.
    if (!isDigits(text, from, core)) return -1;
    if (core - from > 5) break;
    starts[groups] = from;
    ends[groups] = core;
    wordEnds[groups++] = wordStop;
    digits += core - from;
    if (digits >= 7 && digits <= 15) longest = groups;
    if (core !== wordStop) break;
    from = wordStop;
  }
  if (longest === 0) return -1;
  // The groups where they stand: the token is `tel:` and the characters but the spaces between the groups.
  plain(text, start, ends[longest - 1], 0, "tel:");
  for (let k = ends[longest - 1]; k < wordEnds[longest - 1]; k++) sink(text[k]);
  return wordEnds[longest - 1];
}
