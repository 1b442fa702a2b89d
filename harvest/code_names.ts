/**
 * Telling a name in code or a file name from a host, for a dotted name written
 * without a scheme, `www.`, a port or a path (`README.md`, `csv_writer.py`,
 * `fx.convert()` against `evil.com`, `evil.co.uk`, `bücher.example`). Each
 * signal is one no host can give:
 *
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
  const twoLabels = host.indexOf(".") === lastDot;
  // The run starts after the underscore of `csv_writer.py`: its first label is glued to an identifier.
  if (start > 0 && piece.charCodeAt(start - 1) === 95 && twoLabels) return true;
  if (piece.charCodeAt(end) === 40 && !COMMON_TLDS.has(tld)) return true;
  return twoLabels && FILE_EXTENSIONS.has(tld);
}
