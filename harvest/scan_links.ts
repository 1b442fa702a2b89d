/**
 * The link part of the scanner: links, e-mail addresses and hosts inside one
 * word, glued to markup or not, each as one canonical token; and the plain
 * tokens of what is left. Linear in the word.
 *
 * @module
 */
import { canonicalHost } from "./entity_grammar.ts";
import { percentDecode, readUrlHost } from "./url_host.ts";
import { COMMON_TLDS, isCodeName } from "./code_names.ts";
import { isTopLevelDomain } from "./top_level_domains.ts";
import type { PlainSink } from "./word_window.ts";

/** Receives each token, and for an entity token the text it was read from. */
export type TokenSink = (token: string, raw?: string) => void;

const HOST_RUN = /[\p{L}\p{M}\p{N}.-]+/gu;
const WIDE_ALNUM = /[\p{L}\p{M}\p{N}]/u;
const SYMBOL_OR_ALNUM = /[\p{L}\p{N}\p{Sc}]/u;
/** File extensions that are not top-level domains, so `report.pdf` is not a host (each checked against IANA's list). */
const NOT_TLDS = new Set(
  ("txt pdf js ts json csv png jpg jpeg gif svg html htm xml yaml yml toml ini cfg conf log doc docx xls xlsx " +
    "ppt pptx odt exe dll bin tar gz tgz bz2 xz rar mp3 mp4 wav avi mkv webm webp bmp tif tiff ico rb go kt " +
    "cpp hpp cs php bat ps1 sql db lock env bak tmp old swp css scss jsx tsx vue mjs cjs wasm iso dmg apk " +
    "msi deb rpm ics vcf eml msg pem crt csr p12 pfx sig asc hs fs el ex exs jl vb erl hrl clj ipynb").split(" "),
);
const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: "80", https: "443", ftp: "21", ws: "80", wss: "443" };
const SENTENCE_START = /^\p{Lu}\p{Ll}{2,}$/u;
const TOKEN = /[\p{L}\p{M}\p{N}]+|[^\s\p{L}\p{M}\p{N}]/gu;
const CLOSERS = new Set([...")'’”»›.,;:!?*"].map((char) => char.charCodeAt(0)));

/** Whether `code` is one of `)'’”»›.,;:!?*`, the marks that may close a word (a bracket, a quote, sentence marks). */
export function isCloser(code: number): boolean {
  return CLOSERS.has(code);
}

/** Whether `word[start, end)` has at least as many `(` as `)`, so a final `)` belongs to it. */
export function balanced(word: string, start: number, end: number): boolean {
  let depth = 0;
  for (let k = start; k < end; k++) {
    if (word[k] === "(") depth++;
    else if (word[k] === ")") depth--;
  }
  return depth >= 0;
}

/**
 * The plain tokens of `lower`: runs of letters, marks and digits, and every other character but whitespace on its
 * own. ASCII text is cut by a loop over its codes, which gives what the regular expression gives.
 */
export function plainTokens(lower: string, sink: TokenSink): void {
  if (!isAscii(lower)) {
    for (const token of lower.match(TOKEN) ?? []) sink(token);
    return;
  }
  let i = 0;
  while (i < lower.length) {
    const code = lower.charCodeAt(i);
    if (isAsciiAlnum(code)) {
      const start = i;
      while (i < lower.length && isAsciiAlnum(lower.charCodeAt(i))) i++;
      sink(lower.slice(start, i));
    } else {
      if (code !== 32 && (code < 9 || code > 13)) sink(lower[i]);
      i++;
    }
  }
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

function isAsciiAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122);
}

/** Links, e-mail addresses and hosts inside one core, glued to markup or not; the rest as plain tokens. */
export function scanLinks(core: string, sink: TokenSink): void {
  const starts: { start: number; body: number }[] = [];
  for (let at = core.indexOf("://"); at >= 0; at = core.indexOf("://", at + 3)) {
    let start = at;
    const floor = starts.length ? starts[starts.length - 1].body : 0;
    while (start > floor && isSchemeChar(core.charCodeAt(start - 1))) start--;
    while (start < at && !/[a-z]/i.test(core[start])) start++;
    if (start < at) starts.push({ start, body: at + 3 });
  }
  let done = 0;
  starts.forEach(({ start, body }, n) => {
    const end = n + 1 < starts.length ? starts[n + 1].start : core.length;
    scanAddresses(core.slice(done, start), sink);
    scanLink(core, start, body, end, sink);
    done = end;
  });
  scanAddresses(core.slice(done), sink);
}

/**
 * Scan the word `text[start, end)` if it is one link and its closing marks: ASCII letters (the scheme, from
 * `start` to `schemeEnd`), `://`, and no other `://`; returns whether it did. That is what the full grammar reads
 * such a word as: no opener, no area code, no joined form and no typed value can start with a letter followed by
 * `://`, so it reads the word as one link and its closing marks (the scheme holds no bracket, so the word's brackets
 * balance as the link's do).
 */
export function scanLinkWord(
  text: string,
  start: number,
  schemeEnd: number,
  end: number,
  sink: TokenSink,
  plain: PlainSink,
): boolean {
  const body = schemeEnd + 3;
  // Another `://` in the word (searched back from its end, so never past it: no `://` crosses a word's end).
  if (text.lastIndexOf("://", end - 3) > schemeEnd) return false;
  for (let k = start; k < schemeEnd; k++) if (((text.charCodeAt(k) | 32) - 97) >>> 0 > 25) return false;
  scanLink(text, start, body, end, sink, plain);
  return true;
}

/**
 * The link `text[start, end)`, its scheme from `start` and what follows `://` from `body`: one token for the link
 * without its closing marks, then the marks on their own.
 */
function scanLink(text: string, start: number, body: number, end: number, sink: TokenSink, plain?: PlainSink): void {
  let last = end;
  while (
    last > body && isCloser(text.charCodeAt(last - 1)) && !(text[last - 1] === ")" && balanced(text, body, last))
  ) {
    last--;
  }
  // A link written as its token reads (after `url:`) goes to `plain` where it stands, without being taken apart.
  CANONICAL_HEAD.lastIndex = start;
  if (plain && CANONICAL_HEAD.test(text) && CANONICAL_HEAD.lastIndex <= last) plain(text, start, last, 0, "url:");
  else {
    const token = urlToken(text.slice(start, body - 3).toLowerCase(), text.slice(body, last));
    if (token) sink(token, text.slice(start, last));
    else plainTokens(text.slice(start, last).toLowerCase(), sink);
  }
  plainTokens(text.slice(last, end), sink);
}

/**
 * The start of a link written as its token reads it: a scheme of `a` to `z`, `://`, a host of `a`-`z`, digits, `.` and
 * `-` that ends with a letter or digit (`readUrlHost` keeps such a host as it is, canonical or not), and the `/` that
 * starts its path (so no userinfo, port, escape or capital in the host).
 */
const CANONICAL_HEAD = /[a-z]+:\/\/[a-z\d.-]*[a-z\d]\//y;

function urlToken(scheme: string, rest: string): string | undefined {
  let authorityEnd = rest.search(/[/?#\\]/);
  if (authorityEnd < 0) authorityEnd = rest.length;
  const authority = rest.slice(0, authorityEnd);
  const at = authority.lastIndexOf("@");
  const userinfo = at >= 0 ? authority.slice(0, at + 1) : "";
  const read = readUrlHost(authority.slice(at + 1));
  if (!read) return undefined;
  const port = read.port === DEFAULT_PORTS[scheme] ? "" : read.port;
  const path = rest.slice(authorityEnd);
  return `url:${scheme}://${userinfo}${read.host}${port ? `:${port}` : ""}${path.startsWith("/") ? path : `/${path}`}`;
}

/** E-mail addresses in a piece of a core with no URL in it; hosts and plain tokens between them. */
function scanAddresses(written: string, sink: TokenSink): void {
  // A mail client decodes a `mailto:` link's escapes: `mailto:eve%40evil.com` writes to eve@evil.com.
  const piece = written.includes("%") && /mailto:/i.test(written) ? percentDecode(written) : written;
  let done = 0;
  for (let at = piece.indexOf("@"); at >= 0; at = piece.indexOf("@", at + 1)) {
    if (at < done) continue;
    let start = at;
    while (start > done && isAddressChar(piece, start - 1, "._%+-")) start--;
    let end = at + 1;
    while (end < piece.length && isAddressChar(piece, end, ".-")) end++;
    while (end > at + 1 && /[.-]/.test(piece[end - 1])) end--;
    const domain = canonicalHost(piece.slice(at + 1, end));
    if (start === at || !domain) continue;
    scanHosts(piece.slice(done, start), sink);
    sink(`email:${piece.slice(start, at).toLowerCase()}@${domain}`, piece.slice(start, end));
    done = end;
  }
  scanHosts(piece.slice(done), sink);
}

/**
 * Where a host glued to the next sentence ends: in `www.x.com.They`, a capitalised word right after a common
 * top-level domain written in lower case (from the third label on) starts a sentence, so the host is `www.x.com`.
 * A capitalised common top-level domain is a label, not a sentence: `a.uk.Com` is one host. Returns the length of the
 * host part.
 */
function sentenceCut(run: string): number {
  const labels = run.split(".");
  let length = labels[0].length + 1 + (labels[1]?.length ?? 0);
  for (let k = 2; k < labels.length; k++) {
    const label = labels[k];
    if (SENTENCE_START.test(label) && COMMON_TLDS.has(labels[k - 1]) && !COMMON_TLDS.has(label.toLowerCase())) {
      return length;
    }
    length += 1 + label.length;
  }
  return run.length;
}

/** Hosts (and host/path links) in a piece with no URL or address in it; the rest as plain tokens. */
function scanHosts(piece: string, sink: TokenSink): void {
  if (!piece) return;
  if (!piece.includes(".")) return plainTokens(piece.toLowerCase(), sink);
  let done = 0;
  for (const match of piece.matchAll(HOST_RUN)) {
    let start = match.index!;
    let end = start + match[0].length;
    while (start < end && /[.-]/.test(piece[start])) start++;
    while (end > start && /[.-]/.test(piece[end - 1])) end--;
    end = start + sentenceCut(piece.slice(start, end));
    const text = piece.slice(start, end);
    if (!text.includes(".")) continue;
    const host = canonicalHost(text);
    if (!host) continue;
    const tail = piece.slice(end);
    const path = /^(?::\d+)?[/?#]/.test(tail) ? tail : "";
    if (!host.startsWith("www.")) {
      const tld = host.slice(host.lastIndexOf(".") + 1);
      if (NOT_TLDS.has(tld)) continue;
      // A bare name under no top-level domain (`error.message`, `import.meta.url`) is a name in code: no resolver finds it.
      if (!path && (!isTopLevelDomain(tld) || isCodeName(piece, start, end, host))) continue;
    }
    plainTokens(piece.slice(done, start).toLowerCase(), sink);
    let linkEnd = end;
    if (path) linkEnd = piece.length;
    sink(path ? `link:${host}${path}` : `host:${host}`, piece.slice(start, linkEnd));
    done = linkEnd;
    if (path) break;
  }
  plainTokens(piece.slice(done).toLowerCase(), sink);
}

function isSchemeChar(code: number): boolean {
  const lower = code | 32;
  return (lower >= 97 && lower <= 122) || (code >= 48 && code <= 57) || code === 43 || code === 45 || code === 46;
}

/** A letter, mark or digit (any script), or one of `extra`. */
function isAddressChar(text: string, at: number, extra: string): boolean {
  const code = text.charCodeAt(at);
  if (code < 0x80) {
    const lower = code | 32;
    return (lower >= 97 && lower <= 122) || (code >= 48 && code <= 57) || extra.includes(text[at]);
  }
  return WIDE_ALNUM.test(text[at]);
}

/** Whether a one-character word can start a value: a letter, a digit or a currency symbol. */
export function isWordChar(char: string): boolean {
  const code = char.charCodeAt(0);
  if (code >= 0x80) return SYMBOL_OR_ALNUM.test(char);
  const lower = code | 32;
  return (lower >= 97 && lower <= 122) || (code >= 48 && code <= 57) || code === 36;
}
