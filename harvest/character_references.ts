/**
 * HTML character references, decoded the way a browser or a mail client
 * renders them, so that `evil&#46;com`, `eve&commat;evil&period;com` or an
 * `href` written entirely in references reads as the link a reader sees.
 *
 * One pass, linear in the text: numeric references (decimal and hexadecimal,
 * with or without the final `;`, any number of leading zeros) and the named
 * references that can write part of a link, an address or a host (with their
 * `;`, as HTML requires for all but a few legacy names). A name outside that
 * set is left as written: its `&` and `;` split the word as they would split
 * the rendering, so no host part can hide across it. Decoding happens once, as
 * a renderer does: `&amp;#46;` shows `&#46;`, not a dot.
 *
 * @module
 */

/** Named references with a fixed meaning: link punctuation, spaces, invisible characters, ligatures and letters. */
const NAMED: ReadonlyMap<string, string> = new Map(
  (
    'amp & AMP & lt < LT < gt > GT > quot " QUOT " apos \' period . commat @ colon : sol / bsol \\ num # ' +
    "percnt % quest ? equals = lowbar _ UnderBar _ plus + comma , semi ; excl ! lpar ( rpar ) lsqb [ rsqb ] " +
    "lbrack [ rbrack ] lcub { rcub } lbrace { rbrace } dollar $ ast * midast * verbar | vert | VerticalLine | " +
    "grave ` DiacriticalGrave ` Hat ^ hyphen \u2010 dash \u2010 minus \u2212 ndash \u2013 mdash \u2014 " +
    "middot \u00b7 centerdot \u00b7 CenterDot \u00b7 bull \u2022 hellip \u2026 mldr \u2026 nbsp \u00a0 " +
    "NonBreakingSpace \u00a0 ensp \u2002 emsp \u2003 emsp13 \u2004 emsp14 \u2005 numsp \u2007 puncsp \u2008 " +
    "thinsp \u2009 ThinSpace \u2009 hairsp \u200a VeryThinSpace \u200a MediumSpace \u205f ZeroWidthSpace \u200b " +
    "NegativeVeryThinSpace \u200b NegativeThinSpace \u200b NegativeMediumSpace \u200b NegativeThickSpace \u200b " +
    "zwnj \u200c zwj \u200d lrm \u200e rlm \u200f NoBreak \u2060 af \u2061 ApplyFunction \u2061 it \u2062 " +
    "InvisibleTimes \u2062 ic \u2063 InvisibleComma \u2063 shy \u00ad lsquo \u2018 rsquo \u2019 ldquo \u201c " +
    "rdquo \u201d laquo \u00ab raquo \u00bb sup1 \u00b9 sup2 \u00b2 sup3 \u00b3 ordf \u00aa ordm \u00ba " +
    "micro \u00b5 szlig \u00df AElig \u00c6 aelig \u00e6 OElig \u0152 oelig \u0153 Oslash \u00d8 oslash \u00f8 " +
    "ETH \u00d0 eth \u00f0 THORN \u00de thorn \u00fe IJlig \u0132 ijlig \u0133 fflig \ufb00 filig \ufb01 " +
    "fllig \ufb02 ffilig \ufb03 ffllig \ufb04 Dstrok \u0110 dstrok \u0111 Hstrok \u0126 hstrok \u0127 " +
    "Lstrok \u0141 lstrok \u0142 Tstrok \u0166 tstrok \u0167 ENG \u014a eng \u014b kgreen \u0138 " +
    "Lmidot \u013f lmidot \u0140 napos \u0149 inodot \u0131 imath \u0131 jmath \u0237 fnof \u0192 " +
    "imped \u01b5 ell \u2113 ii \u2148 ImaginaryI \u2148 dd \u2146 DifferentialD \u2146 DD \u2145 " +
    "CapitalDifferentialD \u2145 ee \u2147 ExponentialE \u2147 exponentiale \u2147 incare \u2105 trade \u2122 " +
    "TRADE \u2122 numero \u2116 planckh \u210e sigmaf \u03c2 sigmav \u03c2 varsigma \u03c2 epsi \u03b5 " +
    "upsi \u03c5 Upsi \u03d2 thetav \u03d1 phiv \u03d5 piv \u03d6 NewLine \n Tab \t"
  ).split(" ").reduce<[string, string][]>((pairs, word, i, words) => {
    if (i % 2 === 0) pairs.push([word, words[i + 1]]);
    return pairs;
  }, []),
);

/** Names whose `;` may be left out (the legacy references a browser still decodes in text). */
const LEGACY = new Set(["amp", "AMP", "lt", "LT", "gt", "GT", "quot", "QUOT", "nbsp"]);

/** The diacritic suffixes of HTML's Latin letter names (`Aacute`, `ccedil`, `zcaron`) and their combining marks. */
const MARKS: Readonly<Record<string, string>> = {
  acute: "\u0301",
  grave: "\u0300",
  circ: "\u0302",
  tilde: "\u0303",
  macr: "\u0304",
  breve: "\u0306",
  dot: "\u0307",
  uml: "\u0308",
  ring: "\u030a",
  dblac: "\u030b",
  caron: "\u030c",
  cedil: "\u0327",
  ogon: "\u0328",
};
const LATIN_MARKED = /^([A-Za-z])(acute|grave|circ|tilde|macr|breve|dot|uml|ring|dblac|caron|cedil|ogon)$/;
/** `Ascr`, `bfr`, `copf`: script, fraktur and double-struck letters, which NFKC folds to the plain letter. */
const MATH_LETTER = /^([A-Za-z])(?:scr|fr|opf)$/;
const GREEK = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau " +
  "upsilon phi chi psi omega";
const GREEK_LETTERS: ReadonlyMap<string, string> = new Map(
  GREEK.split(" ").flatMap((name, i) => {
    const code = 0x391 + i + (i >= 17 ? 1 : 0); // U+03A2 is unassigned: sigma and after move up one
    return [[name, String.fromCharCode(code + 0x20)], [
      name[0].toUpperCase() + name.slice(1),
      String.fromCharCode(code),
    ]];
  }),
);
/** Cyrillic capitals U+0410 to U+042F by their HTML names (`Acy` ...), then U+0401 to U+040F (a `-` is a gap). */
const CYRILLIC = "A B V G D IE ZH Z I J K L M N O P R S T U F KH TS CH SH SHCH HARD Y SOFT E YU YA";
const CYRILLIC_EXTRA = "IO DJ GJ Juk DS Iuk YI Jser LJ NJ TSH KJ - Ubr DZ";
const CYRILLIC_LETTERS: ReadonlyMap<string, string> = new Map([
  ...cyrillicNames(CYRILLIC, 0x410, 0x20),
  ...cyrillicNames(CYRILLIC_EXTRA, 0x401, 0x50),
]);

function cyrillicNames(names: string, first: number, toLower: number): [string, string][] {
  return names.split(" ").flatMap((name, i): [string, string][] =>
    name === "-" ? [] : [
      [`${name}cy`, String.fromCharCode(first + i)],
      [`${name.toLowerCase()}cy`, String.fromCharCode(first + i + toLower)],
    ]
  );
}

/** Windows-1252 meanings of the C1 controls, which HTML gives numeric references 128 to 159. */
const C1 = "\u20ac\x81\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\x8d\u017d\x8f" +
  "\x90\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\x9d\u017e\u0178";
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
 * assert.equal(decodeCharacterReferences("AT&amp;T &amp;#46; &unknown;"), "AT&T &#46; &unknown;");
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

function namedCharacter(name: string, semicolon: boolean): string | undefined {
  if (!semicolon) return LEGACY.has(name) ? NAMED.get(name) : undefined;
  const fixed = NAMED.get(name) ?? GREEK_LETTERS.get(name) ?? CYRILLIC_LETTERS.get(name);
  if (fixed !== undefined) return fixed;
  const marked = LATIN_MARKED.exec(name);
  if (marked) return (marked[1] + MARKS[marked[2]]).normalize("NFC");
  return MATH_LETTER.exec(name)?.[1];
}
