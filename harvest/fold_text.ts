/**
 * Folding, the first step of the scanner: text as pab compares it, before it
 * is cut into words. Linear in the text, and free for plain ASCII.
 *
 * @module
 */

const INVISIBLE = /\p{Cf}/gu;
/**
 * A character that may change under folding: anything outside ASCII and the Latin-1 letters (U+00C0 to U+00FF).
 * Those letters are their own fold (every one is NFKC-stable, none is a format character, and none composes with
 * ASCII or with another), so `Zürich` or `café` costs no normalisation; a word is folded whole when it has any
 * other character outside ASCII.
 */
const NEEDS_FOLD = /[\u0080-\u00bf\u0100-\uffff]/;
const FULL_STOPS = /[\u3002\uff61]/g;

/**
 * Fold text the way pab compares it, keeping case: invisible format characters
 * dropped (before and after NFKC, so they cannot block composition), NFKC, and
 * ideographic full stops as dots. Only the words that have a character outside
 * ASCII and the Latin-1 letters are folded (see NEEDS_FOLD), so plain English,
 * French or German text costs one regular-expression pass.
 */
export function foldText(text: string): string {
  if (!NEEDS_FOLD.test(text)) return text;
  let folded = "";
  let done = 0;
  const pattern = new RegExp(NEEDS_FOLD.source, "g");
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    let start = match.index;
    while (start > done && !isSpace(text.charCodeAt(start - 1))) start--;
    let end = match.index + 1;
    while (end < text.length && !isSpace(text.charCodeAt(end))) end++;
    pattern.lastIndex = end;
    folded += text.slice(done, start) + foldWord(text.slice(start, end));
    done = end;
  }
  return done === 0 ? text : folded + text.slice(done);
}

/** Spaces and tabs on one line: JavaScript's `\s` but line breaks and U+FEFF. */
const INLINE_SPACE = "[ \\t\\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000]";
const INLINE = new RegExp(INLINE_SPACE);
/** An `@` with such spaces before or after it, at least one. */
const SPACED_AT = new RegExp(`${INLINE_SPACE}+@${INLINE_SPACE}*|@${INLINE_SPACE}+`, "g");

/**
 * Drop spaces and tabs around `@` (`bob @ corp.example` is an address written to dodge harvesters, and reads as
 * `bob@corp.example`). One pass; a text with no such `@` is returned as it is.
 */
export function joinSpacedAt(text: string): string {
  // Most `@` have no space next to them (addresses written whole): look there before rewriting the whole text.
  for (let at = text.indexOf("@"); at >= 0; at = text.indexOf("@", at + 1)) {
    if (INLINE.test(text.charAt(at - 1) + text.charAt(at + 1))) return text.replace(SPACED_AT, "@");
  }
  return text;
}

function foldWord(word: string): string {
  return word.replace(INVISIBLE, "").normalize("NFKC").replace(INVISIBLE, "").replace(FULL_STOPS, ".");
}

/** Whitespace that separates words (JavaScript's \s without U+FEFF, which is an invisible format character). */
function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) ||
    (code >= 0x80 && (code === 0x85 || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) ||
      code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000));
}
