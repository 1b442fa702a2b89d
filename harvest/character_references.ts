/**
 * HTML character references, decoded the way a browser or a mail client
 * renders them, so that `evil&#46;com`, `eve&commat;evil&period;com` or an
 * `href` written entirely in references reads as the link a reader sees.
 *
 * One pass, linear in the text: numeric references (decimal and hexadecimal,
 * with or without the final `;`, any number of leading zeros) and named ones
 * (with their `;`, as HTML requires for all but a few legacy names): link
 * punctuation, spaces and invisible characters, and letters (`&eacute;`,
 * `&Ascr;`); any other name reads as its own letters, so that no host written
 * with references can hide (see `namedCharacter`). Decoding happens once, as a
 * renderer does: `&amp;#46;` shows `&#46;`, not a dot.
 *
 * @module
 */

/**
 * Named references decoded to their character: link punctuation, markup, and the spaces and invisible characters
 * that would otherwise glue or split a host. Every other name reads as its own letters (below).
 */
const NAMED: ReadonlyMap<string, string> = new Map(
  (
    'amp & AMP & lt < LT < gt > GT > quot " QUOT " apos \' period . commat @ colon : sol / bsol \\ num # ' +
    "percnt % quest ? equals = lowbar _ plus + comma , semi ; excl ! lpar ( rpar ) lsqb [ rsqb ] lbrack [ " +
    "rbrack ] lcub { rcub } dollar $ ast * verbar | grave ` Hat ^ nbsp \u00a0 ensp \u2002 emsp \u2003 " +
    "thinsp \u2009 hairsp \u200a ZeroWidthSpace \u200b zwnj \u200c zwj \u200d NoBreak \u2060 shy \u00ad " +
    "NewLine \n Tab \t"
  ).split(" ").reduce<[string, string][]>((pairs, word, i, words) => {
    if (i % 2 === 0) pairs.push([word, words[i + 1]]);
    return pairs;
  }, []),
);

/** Names whose `;` may be left out (the legacy references a browser still decodes in text). */
const LEGACY = new Set(["amp", "AMP", "lt", "LT", "gt", "GT", "quot", "QUOT", "nbsp"]);

/** The diacritic suffixes of HTML's Latin letter names (`Aacute`, `ccedil`, `zcaron`). */
const MARKS = "acute grave circ tilde macr breve dot uml ring dblac caron cedil ogon".split(" ");
/** Each suffix's combining mark, as its offset from U+0300 (`acute` is U+0301). */
const MARK_OFFSETS = [1, 0, 2, 3, 4, 6, 7, 8, 10, 11, 12, 39, 40];
const LATIN_MARKED = new RegExp(`^([A-Za-z])(${MARKS.join("|")})$`);
/** `Ascr`, `bfr`, `copf`: script, fraktur and double-struck letters, which NFKC folds to the plain letter. */
const MATH_LETTER = /^([A-Za-z])(?:scr|fr|opf)$/;

/** Windows-1252 meanings of the C1 controls, which HTML gives numeric references 128 to 159. */
const C1 = ("20ac 81 201a 192 201e 2026 2020 2021 2c6 2030 160 2039 152 8d 17d 8f 90 2018 2019 201c 201d 2022 2013 " +
  "2014 2dc 2122 161 203a 153 9d 17e 178").split(" ").map((hex) => String.fromCharCode(parseInt(hex, 16)));
const REFERENCE = /&(?:#(?:[xX]([0-9a-fA-F]+)|([0-9]+));?|([A-Za-z][A-Za-z0-9]{0,31})(;?))/y;

/**
 * `text` with its HTML character references decoded once, as a renderer shows
 * it; text without `&` is returned as it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeCharacterReferences } from "./character_references.ts";
 * assert.equal(decodeCharacterReferences("eve&commat;evil&#46;com and &#x68;ttps&colon;&sol;&sol;x.example"),
 *   "eve@evil.com and https://x.example");
 * assert.equal(decodeCharacterReferences("AT&amp;T &amp;#46; &unknown; &unknown"), "AT&T &#46; unknown &unknown");
 * ```
 */
export function decodeCharacterReferences(text: string): string {
  let at = text.indexOf("&");
  if (at < 0) return text;
  let decoded = "";
  let done = 0;
  for (; at >= 0; at = text.indexOf("&", at + 1)) {
    REFERENCE.lastIndex = at;
    const match = REFERENCE.exec(text);
    if (!match) continue;
    const [whole, hex, decimal, name, semicolon] = match;
    const char = name === undefined
      ? numericCharacter(hex ?? decimal, hex === undefined ? 10 : 16)
      : namedCharacter(name, semicolon === ";");
    if (char === undefined) continue;
    decoded += text.slice(done, at) + char;
    done = at + whole.length;
    at = done - 1;
  }
  return done === 0 ? text : decoded + text.slice(done);
}

/** The character of a numeric reference, as HTML maps it (0, surrogates and beyond U+10FFFF read as U+FFFD). */
function numericCharacter(digits: string, radix: number): string {
  let start = 0;
  while (start < digits.length - 1 && digits.charCodeAt(start) === 48) start++;
  if (digits.length - start > 8) return "\ufffd";
  const code = parseInt(digits.slice(start), radix);
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\ufffd";
  if (code >= 0x80 && code <= 0x9f) return C1[code - 0x80];
  return String.fromCodePoint(code);
}

/**
 * The text of a named reference. A name outside the table reads as its own letters, fail closed: HTML has some two
 * thousand names (`&alpha;`, `&acy;` for a Cyrillic letter), and one of them inside a host must not split it, so
 * `ex&alpha;mple.com` is still found as a host (`exalphample.com`, which no source vouches for) and is asked about.
 */
function namedCharacter(name: string, semicolon: boolean): string | undefined {
  if (!semicolon) return LEGACY.has(name) ? NAMED.get(name) : undefined;
  const fixed = NAMED.get(name);
  if (fixed !== undefined) return fixed;
  const marked = LATIN_MARKED.exec(name);
  if (marked) return (marked[1] + String.fromCharCode(0x300 + MARK_OFFSETS[MARKS.indexOf(marked[2])])).normalize("NFC");
  return MATH_LETTER.exec(name)?.[1] ?? name;
}
