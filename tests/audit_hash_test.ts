/**
 * The audit chain's hashing, made cheaper, writes the same records as its
 * definition: a record's hash is the sha256 of the canonical JSON of
 * `{stream, seq, prev, event}` with the event as its canonical JSON reads
 * back, and a store keeps `JSON.stringify` of the record. Chains written
 * before the change verify after it, and a change to a stored record's event
 * (its output above all) is still found.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { canonicalJson, sha256Hex } from "../core/mod.ts";
import { readBack } from "./_json_read_back.ts";
import {
  type AuditEvent,
  GENESIS,
  hashRecord,
  linkRecord,
  linkText,
  verifyJsonl,
  verifyRecords,
} from "../adapters/audit/mod.ts";

/** The record as the chain defines it, with the audited reference hash (`@noble/hashes`). */
function definedRecord(stream: string, head: { seq: number; hash: string } | undefined, event: AuditEvent) {
  const seq = head ? head.seq + 1 : 0;
  const prev = head ? head.hash : GENESIS;
  // Read back by the JSON grammar: V8's JSON.parse can misread an escaped key (tests/audit_text_properties_test.ts).
  const plain = readBack(canonicalJson(event)) as AuditEvent;
  return { stream, seq, prev, event: plain, hash: sha256Hex(canonicalJson({ stream, seq, prev, event: plain })) };
}

/** Keys that stress key order and JSON: numeric-looking, `__proto__`, empty, non-ASCII, lone surrogates. */
const key = fc.oneof(
  fc.string(),
  fc.constantFrom("__proto__", "", "0", "1", "10", "9", "4294967294", "4294967295", "-1", "01", "kind", "at"),
  fc.nat().map(String),
  fc.string({ unit: "grapheme" }),
  fc.constantFrom("\ud800", "a\udc00", "\u2028", "\u001b[31m"),
);
const text = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constantFrom("\ud800", "é€😀", "\u0000"));
const leaf = fc.oneof(text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    leaf,
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(key, tie("value"), { maxKeys: 5 }),
  ),
})).value;
const event = fc.record({ detail: fc.dictionary(key, value, { maxKeys: 6 }), output: text }).map((
  parts,
): AuditEvent => ({
  ...parts.detail,
  kind: "result",
  at: "2026-12-01T10:00:00.000Z",
  output: parts.output,
}));

Deno.test("linkText() writes the defined record: its hash, and the text JSON.stringify gives of it", () => {
  fc.assert(
    fc.property(fc.string(), fc.array(event, { minLength: 1, maxLength: 4 }), (stream, events) => {
      let head: { seq: number; hash: string } | undefined;
      for (const item of events) {
        const defined = definedRecord(stream, head, item);
        const linked = linkText(stream, head, item);
        assert.equal(linked.hash, defined.hash);
        assert.equal(linked.text, JSON.stringify(defined));
        assert.deepEqual(readBack(linked.text), defined);
        // linkRecord() reads the text back with JSON.parse: compared by the fields no key can change.
        const { seq, prev, hash } = linkRecord(stream, head, item);
        assert.deepEqual([seq, prev, hash], [defined.seq, defined.prev, defined.hash]);
        assert.equal(hashRecord(defined), defined.hash);
        head = linked;
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("a chain hashed by the definition verifies, and a change to any record's event is found at it", () => {
  fc.assert(
    fc.property(
      fc.array(event, { minLength: 1, maxLength: 5 }),
      fc.nat(),
      text,
      (events, pick, replacement) => {
        const records: ReturnType<typeof definedRecord>[] = [];
        for (const item of events) records.push(definedRecord("s_1", records.at(-1), item));
        assert.equal(verifyRecords(records).ok, true);
        const at = pick % records.length;
        fc.pre(records[at].event.output !== replacement);
        const changed = records.map((record, i) =>
          i === at ? { ...record, event: { ...record.event, output: replacement } } : record
        );
        const verdict = verifyRecords(changed);
        assert.equal(verdict.ok, false);
        if (!verdict.ok) {
          assert.equal(verdict.problem.code, "ERR_AUDIT_HASH");
          assert.equal(verdict.problem.where, `record ${at}`);
        }
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("a stored text of linkText() is a line audit verify accepts once written canonically", () => {
  const first = linkText("s_1", undefined, { kind: "session", at: "2026-12-01T10:00:00.000Z" });
  const second = linkText("s_1", first, { kind: "result", at: "2026-12-01T10:00:01.000Z", output: "x".repeat(5000) });
  const lines = [first, second].map((linked) => `${canonicalJson(JSON.parse(linked.text))}\n`).join("");
  assert.deepEqual(verifyJsonl(lines), { ok: true, records: 2, streams: 1 });
  assert.equal(verifyJsonl(lines.replace("xxxxx", "xxxxy")).ok, false);
});
