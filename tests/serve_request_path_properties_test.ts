/**
 * The fast paths of a served request against their references: a body's
 * depth refusal and UTF-8 refusal (a cheap pre-check, then the exact scan;
 * a lenient decode, then the strict one), a JSON answer's header list, and
 * the digests compared on each request.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { canonicalJson, sha256Hex } from "../core/mod.ts";
import { type Decision, gapKey } from "../guard/mod.ts";
import { shownDigest, shownText } from "../adapters/serve/session_rulings.ts";
import { parseJsonBytes } from "../adapters/serve/read_body.ts";
import { JSON_HEADERS, jsonTextAnswer } from "../adapters/serve/error_answer.ts";
import { textDigest } from "../adapters/serve/text_digest.ts";
import { checkCredential, mintCredential } from "../adapters/serve/session_credential.ts";

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The reference: strict decoding, the full nesting scan, then JSON.parse (the reader before its fast paths). */
function referenceParse(bytes: Uint8Array, depth: number): { value: unknown } | { code: string } {
  if (bytes.byteLength === 0) return { value: {} };
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    return { code: "ERR_REQUEST_JSON" };
  }
  let level = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++level > depth) return { code: "ERR_REQUEST_TOO_DEEP" };
    } else if (code === 0x5d || code === 0x7d) level--;
  }
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { code: "ERR_REQUEST_JSON" };
  }
}

function actualParse(bytes: Uint8Array, depth: number): { value: unknown } | { code: string } {
  try {
    return { value: parseJsonBytes(bytes, depth) };
  } catch (error) {
    return { code: (error as { code: string }).code };
  }
}

/** Bodies made of JSON's structural characters, strings with brackets and escapes, and odd bytes. */
const bodyText = fc.array(
  fc.oneof(
    fc.constantFrom("[", "]", "{", "}", ",", ":", '"', "\\", '"["', '"{"', '"\\""', '"\\\\"', "1", "null", " "),
    fc.string({ maxLength: 6 }),
    fc.json({ maxDepth: 4 }),
  ),
  { maxLength: 60 },
).map((parts) => parts.join(""));

/** Arrays and objects nested around `depth`, inside and outside strings. */
const nested = fc.record({
  levels: fc.integer({ min: 0, max: 12 }),
  quoted: fc.integer({ min: 0, max: 12 }),
  open: fc.constantFrom("[", '{"a":'),
}).map(({ levels, quoted, open }) => {
  const close = open === "[" ? "]" : "}";
  return `${open.repeat(levels)}"${"[{".repeat(quoted)}"${close.repeat(levels)}`;
});

Deno.test("parseJsonBytes() refuses and parses exactly as the full scan does, for any text and depth (property)", () => {
  fc.assert(
    fc.property(fc.oneof(bodyText, nested, fc.string({ unit: "binary", maxLength: 80 })), fc.nat(8), (text, depth) => {
      const bytes = new TextEncoder().encode(text);
      assert.deepEqual(actualParse(bytes, depth), referenceParse(bytes, depth));
    }),
    { numRuns: 3000 },
  );
});

Deno.test("parseJsonBytes() refuses invalid UTF-8 and keeps U+FFFD and a BOM as the strict decoder does (property)", () => {
  const odd = fc.constantFrom(
    [0xff],
    [0xc0, 0x80],
    [0xed, 0xa0, 0x80],
    [0xe2, 0x82],
    [0xef, 0xbf, 0xbd],
    [0xef, 0xbb, 0xbf],
    [0xf4, 0x90, 0x80, 0x80],
    [0x80],
  );
  fc.assert(
    fc.property(
      fc.array(fc.oneof(odd, fc.string({ maxLength: 5 }).map((s) => [...new TextEncoder().encode(s)]))),
      (parts) => {
        const inner = new Uint8Array(parts.flat());
        // As a JSON string's content, and as the whole body.
        for (const bytes of [new Uint8Array([0x22, ...inner, 0x22]), inner]) {
          assert.deepEqual(actualParse(bytes, 8), referenceParse(bytes, 8));
        }
      },
    ),
    { numRuns: 2000 },
  );
});

Deno.test("parseJsonBytes() refuses a deep body however its brackets hide among strings (property)", () => {
  fc.assert(
    fc.property(fc.integer({ min: 129, max: 3000 }), fc.nat(400), (levels, decoys) => {
      // Decoy brackets inside a string come first: the cheap count passes, the exact scan must still run.
      const text = `{"d":"${"[".repeat(decoys)}","x":${"[".repeat(levels)}${"]".repeat(levels)}}`;
      assert.throws(() => parseJsonBytes(new TextEncoder().encode(text)), { code: "ERR_REQUEST_TOO_DEEP" });
      const shallow = `{"d":"${"[".repeat(decoys + levels)}","x":${"[".repeat(127)}${"]".repeat(127)}}`;
      assert.equal(typeof parseJsonBytes(new TextEncoder().encode(shallow)), "object");
    }),
    { numRuns: 50 },
  );
});

Deno.test("jsonTextAnswer() gives the header list a headers record in the init gives (property)", () => {
  const name = fc.constantFrom("retry-after", "Retry-After", "x-extra", "content-type", "Cache-Control", "allow");
  const value = fc.stringMatching(/^[ -~]{0,20}$/).map((text) => text.trim());
  fc.assert(
    fc.property(fc.dictionary(name, value, { maxKeys: 4 }), fc.constantFrom(200, 400, 429, 503), (extra, status) => {
      const answer = jsonTextAnswer(status, '{"a":1}', extra);
      const reference = new Response('{"a":1}', {
        status,
        headers: Object.keys(extra).length ? { ...JSON_HEADERS, ...extra } : JSON_HEADERS,
      });
      // The record merges names case-sensitively before the header list combines them; the names pab passes are
      // lowercase, distinct from JSON_HEADERS' or meant to replace them: compare those.
      const lower = Object.keys(extra).every((key) => key === key.toLowerCase());
      if (lower) assert.deepEqual([...answer.headers], [...reference.headers]);
      assert.equal(answer.status, status);
    }),
  );
});

Deno.test("textDigest() is core's sha256Hex for any text, lone surrogates included (property)", () => {
  fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 300 }), (text) => {
    assert.equal(textDigest(text), sha256Hex(text));
  }));
  fc.assert(
    fc.property(
      fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) }),
      (text) => {
        assert.equal(textDigest(text), sha256Hex(text));
      },
    ),
  );
});

/** Freeze a value and everything in it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

function referenceShown(decision: Decision): string {
  return canonicalJson([decision.fingerprint, decision.gaps.map(gapKey), decision.labelBefore]);
}

Deno.test("shownText() is the canonical JSON of the call, its gaps and the label, whatever they hold (property)", () => {
  const gap = fc.record({
    code: fc.string({ maxLength: 8 }),
    severity: fc.constantFrom("block", "confirm", "warn"),
    message: fc.string({ unit: "binary", maxLength: 20 }),
    argument: fc.option(fc.string({ maxLength: 5 }), { nil: undefined }),
    value: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
    sources: fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
  }, { requiredKeys: ["code", "severity", "message"] });
  const label = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
  fc.assert(
    fc.property(
      fc.string({ unit: "binary", maxLength: 70 }),
      fc.array(gap, { maxLength: 3 }),
      label,
      fc.boolean(),
      fc.jsonValue({ maxDepth: 1 }),
      (fingerprint, gaps, labelBefore, frozen, change) => {
        if (frozen) deepFreeze(labelBefore);
        const decision = { fingerprint, gaps, labelBefore } as unknown as Decision;
        assert.equal(shownText(decision), referenceShown(decision));
        assert.equal(shownDigest(decision), sha256Hex(referenceShown(decision)));
        // A label that can change is read again: its text is never kept past a change.
        if (!frozen) (labelBefore as Record<string, unknown>).changed = change;
        assert.equal(shownText(decision), referenceShown(decision));
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("shownText() reads a frozen label with a getter, or nested unfrozen data, afresh each time", () => {
  let reads = 0;
  const getter = Object.freeze(Object.defineProperty({}, "trust", { get: () => `t${reads++}`, enumerable: true }));
  const decision = (labelBefore: object) => ({ fingerprint: "f", gaps: [], labelBefore }) as unknown as Decision;
  assert.equal(shownText(decision(getter)), '["f",[],{"trust":"t0"}]');
  assert.equal(shownText(decision(getter)), '["f",[],{"trust":"t1"}]');
  const inner = { readers: ["public"] };
  const shallow = Object.freeze({ known: inner });
  assert.equal(shownText(decision(shallow)), '["f",[],{"known":{"readers":["public"]}}]');
  inner.readers.push("another");
  assert.equal(shownText(decision(shallow)), '["f",[],{"known":{"readers":["public","another"]}}]');
  assert.equal(shownText(decision(shallow)), referenceShown(decision(shallow)));
});

Deno.test("checkCredential() accepts only the session's token, before and after it matched, whatever else is tried (property)", () => {
  const { token, digest } = mintCredential();
  const other = mintCredential();
  const near = fc.oneof(
    fc.string({ maxLength: 60 }),
    fc.nat(token.length - 1).chain((at) =>
      fc.string({ minLength: 1, maxLength: 1 }).map((c) => token.slice(0, at) + c + token.slice(at + 1))
    ),
    fc.constantFrom(token.slice(0, -1), `${token}x`, token.toUpperCase(), other.token, "", ` ${token}`),
  ).filter((tried) => tried !== token);
  fc.assert(
    fc.property(fc.array(fc.oneof(near, fc.constant(token), fc.constant(null)), { maxLength: 12 }), (tries) => {
      const record = { id: "s_1", ledger: "s_1", created: "", credential: digest };
      for (const tried of tries) {
        const accepted = (() => {
          try {
            checkCredential(record, tried);
            return true;
          } catch (error) {
            assert.equal((error as { code: string }).code, "ERR_SESSION_CREDENTIAL");
            return false;
          }
        })();
        assert.equal(accepted, tried === token, `token ${JSON.stringify(tried)}`);
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("checkCredential() refuses a remembered token once the record holds another digest, or none", () => {
  const { token, digest } = mintCredential();
  const record: { id: string; ledger: string; created: string; credential?: string } = {
    id: "s_1",
    ledger: "s_1",
    created: "",
    credential: digest,
  };
  checkCredential(record, token);
  record.credential = mintCredential().digest;
  assert.throws(() => checkCredential(record, token), { code: "ERR_SESSION_CREDENTIAL" });
  delete record.credential;
  assert.throws(() => checkCredential(record, token), { code: "ERR_SESSION_CREDENTIAL" });
  record.credential = digest;
  checkCredential(record, token);
});
