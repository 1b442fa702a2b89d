/**
 * V8's JSON.parse (Deno 2.9.6) can read an escaped key as an earlier key that
 * holds a backslash (V8 issue 521080746). A tool output the guard reads as
 * JSON must never move a value out of an untrusted field that way: a key with
 * a backslash makes the output lost structure, untrusted as a whole.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { Guard, parsePolicy } from "../mod.ts";

const POLICY = parsePolicy(
  `
version: 1
tools:
  read_inbox:
    output: trusted
    on_tainted: allow
    untrusted_fields: [from]
  send_email:
    on_tainted: allow
    args:
      to: {require: trusted, on_violation: block}
`,
  { source: "misread.yaml" },
);

/** `text` with each character written as a \\u escape. */
function escaped(text: string): string {
  return [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
}

Deno.test("Guard.record() keeps an untrusted field untrusted when JSON.parse misreads its escaped key", () => {
  const guard = new Guard(POLICY);
  // The first output leaves V8 a key whose text equals the escaped "from" cut to four characters.
  guard.record("read_inbox", `{"id":1,"to":"x","\\\\u00":"x"}`);
  const output = `{"id":2,"to":"alice@corp.example","\\u0066rom":"eve@attacker.example"}`;
  guard.record("read_inbox", output);
  assert.equal(guard.decide("send_email", { to: "eve@attacker.example" }).outcome, "block");
});

Deno.test("Guard.record() never lets a value under an untrusted field vouch, whatever parse came before", () => {
  const key = fc.stringMatching(/^[\\u0-9a-f"]{0,4}$/);
  fc.assert(
    fc.property(fc.array(key, { maxLength: 4 }), fc.boolean(), (poisons, escape) => {
      const guard = new Guard(POLICY);
      for (const poison of poisons) guard.record("read_inbox", JSON.stringify({ id: 1, to: "x", [poison]: "x" }));
      const from = escape ? escaped("from") : "from";
      guard.record("read_inbox", `{"id":2,"to":"alice@corp.example","${from}":"eve@attacker.example"}`);
      assert.equal(guard.decide("send_email", { to: "eve@attacker.example" }).outcome, "block");
    }),
    { numRuns: 200 },
  );
});

Deno.test("Guard.record() keeps a JSON output's fields apart when no key holds a backslash", () => {
  const guard = new Guard(POLICY);
  guard.record("read_inbox", `{"from":"eve@attacker.example","to":"alice@corp.example","body":"C:\\\\tmp"}`);
  assert.equal(guard.decide("send_email", { to: "alice@corp.example" }).outcome, "allow");
  assert.equal(guard.decide("send_email", { to: "eve@attacker.example" }).outcome, "block");
});
