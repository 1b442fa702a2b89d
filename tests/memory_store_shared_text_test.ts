/**
 * The in-memory store keeps an input's text sharing its longest string with the audit record that records it: the
 * text is the input's JSON character for character, whatever the output (escapes and lone surrogates included), the
 * inputs and records read back as a store that keeps both whole.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { longTexts, outputsOf } from "./_shared_text_arbitraries.ts";
import { type AuditEvent, linkText, verifyRecords } from "../adapters/audit/mod.ts";
import { MemoryStore, type SessionInput } from "../adapters/store/mod.ts";
import { shareInputText } from "../adapters/store/_memory_text.ts";
import { sharedSource } from "../adapters/store/_kv_shared.ts";

const AT = "2026-12-01T16:00:00.000Z";

/** Strings around the sharing threshold with any characters, lone surrogates and JSON escapes included. */
const longText = longTexts(1500);
const output = outputsOf(longText);

const step = fc.oneof(
  fc.record({
    kind: fc.constant("result" as const),
    tool: fc.constant("read"),
    args: fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(longText, fc.integer()), { maxKeys: 2 }),
    output,
  }),
  fc.record({ kind: fc.constantFrom("user" as const, "system" as const), text: longText }),
);

/** The events a host writes with an input: the event carries the input's text or output (or does not, sometimes). */
function eventsOf(input: SessionInput, carries: boolean): AuditEvent[] {
  if (!carries) return [{ kind: "ledger", at: AT }];
  if (input.kind === "result") {
    return [{ kind: "result", at: AT, tool: input.tool, args: input.args, output: input.output }, {
      kind: "effect",
      at: AT,
    }];
  }
  if (input.kind === "ruling") return [{ kind: "ruling", at: AT, id: input.id }];
  return [{ kind: "ledger", at: AT }, { kind: "message", at: AT, role: input.kind, text: input.text }];
}

Deno.test("shareInputText() gives the input's JSON character for character, or undefined", () => {
  let sharing = 0;
  fc.assert(
    fc.property(step, fc.boolean(), (generated, carries) => {
      const input = JSON.parse(JSON.stringify(generated)) as SessionInput;
      const text = JSON.stringify(input);
      const longest = sharedSource(0, input, text)?.longest;
      for (const event of eventsOf(input, carries)) {
        const record = linkText("s", undefined, event).text;
        const shared = longest === undefined ? undefined : shareInputText(text, longest, record);
        if (shared !== undefined) assert.equal(shared, text, `${sharing++} shared before`);
      }
    }),
    { numRuns: 300 },
  );
  assert.ok(sharing > 30, `only ${sharing} of the inputs shared their text`);
});

Deno.test("shareInputText() shares a long output held by the record, escaped or not", () => {
  for (const output of ["y".repeat(3000), 'line "one"\n\u2028 and a lone \ud800 '.repeat(100)]) {
    const input: SessionInput = { kind: "result", tool: "read", args: { to: "a" }, output };
    const text = JSON.stringify(input);
    const record = linkText("s", undefined, eventsOf(input, true)[0]).text;
    assert.equal(shareInputText(text, output, record), text);
    assert.equal(shareInputText(text, output, linkText("s", undefined, { kind: "ledger", at: AT }).text), undefined);
    assert.equal(
      sharedSource(0, { ...input, output: output.slice(0, 100) }, text),
      undefined,
      "a short piece is kept twice",
    );
  }
});

Deno.test("MemoryStore reads back the inputs and records it shares text between as given", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(step, fc.boolean()), { minLength: 1, maxLength: 6 }), async (generated) => {
      const steps = JSON.parse(JSON.stringify(generated)) as [SessionInput, boolean][];
      const store = new MemoryStore();
      const expected: AuditEvent[] = [];
      for (const [seq, [input, carries]] of steps.entries()) {
        const events = eventsOf(input, carries);
        assert.equal(await store.appendInput("s", seq, input, events), true);
        // A step whose events record no output of the tool's gets it on its last event.
        const recorded = input.kind === "result" && !events.some((event) => Object.hasOwn(event, "output"))
          ? { args: input.args, output: input.output }
          : {};
        expected.push(...events.slice(0, -1), { ...events[events.length - 1], ...recorded, input: seq });
      }
      assert.deepEqual(await store.inputs("s", 0), steps.map(([input]) => input));
      assert.deepEqual(await store.inputs("s", 1), steps.slice(1).map(([input]) => input));
      const records = await store.audit("s");
      assert.equal(verifyRecords(records).ok, true);
      assert.deepEqual(records.map((record) => record.event), JSON.parse(JSON.stringify(expected)));
      store.close();
    }),
    { numRuns: 100 },
  );
});
