// What a JSON text reads back as, by the JSON grammar, without V8's JSON.parse for objects: that JSON.parse
// (Deno 2.9.6, V8 15.0) can misread an object's escaped key after it has parsed an object with the same keys
// before and a key "\\" (V8 issue 521080746, nodejs/node#63785; see tests/audit_text_properties_test.ts), so a
// reference built on it fails at random.
// Strings and numbers are read by JSON.parse one token at a time (no object, no misread); every key becomes an
// own property (a "__proto__" key too), in the order the text lists it, as JSON.parse adds them.

/** The value `text` (JSON, as JSON.stringify writes it: no insignificant space) stands for. */
export function readBack(text: string): unknown {
  const reader = { text, at: 0 };
  const value = readValue(reader);
  if (reader.at !== text.length) throw new SyntaxError(`Unexpected text at ${reader.at} in ${text}`);
  return value;
}

interface Reader {
  readonly text: string;
  at: number;
}

function readValue(reader: Reader): unknown {
  const { text } = reader;
  const first = text[reader.at];
  if (first === "{" || first === "[") {
    const isArray = first === "[";
    const result: Record<string, unknown> | unknown[] = isArray ? [] : {};
    reader.at++;
    while (text[reader.at] !== (isArray ? "]" : "}")) {
      if (text[reader.at] === ",") reader.at++;
      if (isArray) {
        (result as unknown[]).push(readValue(reader));
        continue;
      }
      const key = readValue(reader) as string;
      if (typeof key !== "string" || text[reader.at++] !== ":") throw new SyntaxError(`Bad key at ${reader.at}`);
      Object.defineProperty(result, key, {
        value: readValue(reader),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    reader.at++;
    return result;
  }
  let end = reader.at + 1;
  if (first === '"') {
    while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
    end++;
  } else {
    while (end < text.length && !",]}:".includes(text[end])) end++;
  }
  const token = text.slice(reader.at, end);
  reader.at = end;
  return JSON.parse(token);
}
