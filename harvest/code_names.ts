/**
 * Telling a name in code or a file name from a host, for a dotted name written
 * without a scheme, `www.`, a port or a path (`README.md`, `csv_writer.py`,
 * `fx.convert()` against `evil.com`, `evil.co.uk`, `bücher.example`). Each
 * signal is one no host can give:
 *
 * - a top-level domain of two letters that is no country's (only ISO 3166
 *   codes are ever delegated as two-letter domains): `utils.rb`, `main.hs`;
 * - an underscore in one of the last two labels (`csv_writer.py`): host names
 *   hold none (RFC 952 and 1123), and GitHub's autolinker refuses them there;
 * - a call: `fx.convert(`, unless the domain is one of the common top-level
 *   domains (`evil.com(` stays a host);
 * - a file name: two labels, the last a country code that is also a common
 *   extension of source or document files (`README.md`, `setup.py`,
 *   `install.sh`, `main.rs`). With a subdomain (`sh.rustup.rs`), `www.`, a
 *   scheme or a path it is a host.
 *
 * @module
 */

/** The two-letter top-level domains in IANA's root zone (ISO 3166 codes, and `ac` and `uk`). */
const COUNTRY_CODES = new Set(
  ("ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bm bn bo br bs bt bv bw by bz " +
    "ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg er es et eu fi fj fk fm fo " +
    "fr ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in io iq ir is it je " +
    "jm jo jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mg mh mk ml mm mn mo mp " +
    "mq mr ms mt mu mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py " +
    "qa re ro rs ru rw sa sb sc sd se sg sh si sj sk sl sm sn so sr ss st su sv sx sy sz tc td tf tg th tj tk tl tm " +
    "tn to tr tt tv tw tz ua ug uk us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw").split(" "),
);
/** Country codes that are also common extensions of source, script or document files. */
const FILE_EXTENSIONS = new Set("md py sh rs pl pm ps so cc mk am in ac tf ml nu gd sc cr st".split(" "));
/** Top-level domains common enough that a call parenthesis after one does not make it code. */
export const COMMON_TLDS: ReadonlySet<string> = new Set(
  "com org net edu gov io co uk de fr eu info biz us ca au ch nl".split(" "),
);

/**
 * Whether the dotted name `piece[start, end)`, whose canonical host is
 * `host`, is a name in code or a file name rather than a host. Only for a name
 * written bare: the caller keeps `www.` names and names with a path or port.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isCodeName } from "./code_names.ts";
 * const read = (piece: string, name: string) => isCodeName(piece, piece.indexOf(name), piece.indexOf(name) + name.length, name.toLowerCase());
 * assert.equal(read("see README.md", "README.md"), true);
 * assert.equal(read("csv_writer.py", "writer.py"), true);
 * assert.equal(read("fx.convert()", "fx.convert"), true);
 * assert.equal(read("evil.com()", "evil.com"), false);
 * assert.equal(read("evil.co.uk", "evil.co.uk"), false);
 * ```
 */
export function isCodeName(piece: string, start: number, end: number, host: string): boolean {
  const lastDot = host.lastIndexOf(".");
  const tld = host.slice(lastDot + 1);
  if (tld.length === 2 && !COUNTRY_CODES.has(tld)) return true;
  const twoLabels = host.indexOf(".") === lastDot;
  // The run starts after the underscore of `csv_writer.py`: its first label is glued to an identifier.
  if (start > 0 && piece.charCodeAt(start - 1) === 95 && twoLabels) return true;
  if (piece.charCodeAt(end) === 40 && !COMMON_TLDS.has(tld)) return true;
  return twoLabels && FILE_EXTENSIONS.has(tld);
}
