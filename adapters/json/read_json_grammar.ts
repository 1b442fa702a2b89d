/**
 * A JSON reader that follows the grammar (RFC 8259) without V8's object
 * builder: what a text stands for when `JSON.parse` cannot be trusted with its
 * keys (V8 issue 521080746, nodejs/node#63785: after it has parsed an object
 * whose key holds a backslash, it can read a later object's escaped key as
 * that key).
 *
 * @module
 */

/** An object being read: its entries so far and the key whose value comes next. */
interface OpenObject {
  readonly entries: [string, unknown][];
  key: string;
}

/**
 * The value of the JSON `text`, read by the grammar alone, as `JSON.parse`
 * reads it when it reads right: whitespace, every escape, numbers and strings
 * (each token read by `JSON.parse` on its own, where no object is built), every
 * key an own property in text order (`"__proto__"` too), a repeated key's last
 * value at its first place. Iterative, so any depth reads without a stack
 * overflow; text that is not JSON throws a `SyntaxError`, as `JSON.parse` does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readJsonByGrammar } from "./read_json_grammar.ts";
 * assert.deepEqual(readJsonByGrammar(' {"k":1, "\\u0041":[2, "\\n"]} '), { k: 1, A: [2, "\n"] });
 * assert.deepEqual(Object.keys(readJsonByGrammar('{"__proto__":1,"a":2,"a":3}') as object), ["__proto__", "a"]);
 * assert.throws(() => readJsonByGrammar('{"a":1,}'), SyntaxError);
 * ```
 */
export function readJsonByGrammar(text: string): unknown {
  const reader = new GrammarReader(text);
  return reader.read();
}

class GrammarReader {
  readonly #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  read(): unknown {
    const text = this.#text;
    const open: (OpenObject | unknown[])[] = [];
    let value: unknown;
    for (;;) {
      // Start a value: a scalar ends it here, an object or array with a member goes on the stack.
      this.#skipSpace();
      const first = text.charCodeAt(this.#at);
      if (first === 0x7b /* { */) {
        this.#at++;
        this.#skipSpace();
        if (text.charCodeAt(this.#at) === 0x7d /* } */) {
          this.#at++;
          value = {};
        } else {
          open.push({ entries: [], key: this.#readKey() });
          continue;
        }
      } else if (first === 0x5b /* [ */) {
        this.#at++;
        this.#skipSpace();
        if (text.charCodeAt(this.#at) === 0x5d /* ] */) {
          this.#at++;
          value = [];
        } else {
          open.push([]);
          continue;
        }
      } else if (first === 0x22 /* " */) value = this.#readString();
      else value = this.#readScalar();
      // Hand the value to the containers it ends, until one expects another member.
      for (;;) {
        const container = open.at(-1);
        this.#skipSpace();
        if (container === undefined) {
          if (this.#at !== text.length) throw this.#unexpected();
          return value;
        }
        const next = text.charCodeAt(this.#at++);
        if (Array.isArray(container)) {
          container.push(value);
          if (next === 0x2c /* , */) break;
          if (next !== 0x5d /* ] */) throw this.#unexpected(-1);
          value = open.pop();
        } else {
          container.entries.push([container.key, value]);
          if (next === 0x2c /* , */) {
            container.key = this.#readKey();
            break;
          }
          if (next !== 0x7d /* } */) throw this.#unexpected(-1);
          open.pop();
          // Object.fromEntries defines each key as an own data property, as JSON.parse does.
          value = Object.fromEntries(container.entries);
        }
      }
    }
  }

  /** A key and its colon. */
  #readKey(): string {
    this.#skipSpace();
    if (this.#text.charCodeAt(this.#at) !== 0x22) throw this.#unexpected();
    const key = this.#readString();
    this.#skipSpace();
    if (this.#text.charCodeAt(this.#at++) !== 0x3a /* : */) throw this.#unexpected(-1);
    return key;
  }

  /** The string token at the reader, decoded by JSON.parse on its own (a string, never an object). */
  #readString(): string {
    const text = this.#text;
    const start = this.#at;
    let plain = true;
    let end = start + 1;
    for (; end < text.length; end++) {
      const code = text.charCodeAt(end);
      if (code === 0x22) break;
      if (code === 0x5c /* \ */) {
        plain = false;
        end++;
      } else if (code < 0x20) plain = false;
    }
    if (end >= text.length) throw this.#unexpected();
    this.#at = end + 1;
    return plain ? text.slice(start + 1, end) : JSON.parse(text.slice(start, end + 1));
  }

  /** A number, `true`, `false` or `null`: the token up to the next delimiter, read by JSON.parse. */
  #readScalar(): unknown {
    const text = this.#text;
    const start = this.#at;
    let end = start;
    while (end < text.length && !isDelimiter(text.charCodeAt(end))) end++;
    if (end === start) throw this.#unexpected();
    this.#at = end;
    return JSON.parse(text.slice(start, end));
  }

  #skipSpace(): void {
    const text = this.#text;
    while (isSpace(text.charCodeAt(this.#at))) this.#at++;
  }

  #unexpected(back = 0): SyntaxError {
    const at = this.#at + back;
    const found = at < this.#text.length ? `token ${JSON.stringify(this.#text[at])}` : "end of JSON input";
    return new SyntaxError(`Unexpected ${found} at position ${at}`);
  }
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** Whitespace and the structural characters that end a number or literal. */
function isDelimiter(code: number): boolean {
  return isSpace(code) || code === 0x2c || code === 0x3a || code === 0x5d || code === 0x7d || code === 0x5b ||
    code === 0x7b || code === 0x22;
}
