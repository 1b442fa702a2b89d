import assert from "node:assert/strict";
import fc from "fast-check";
import { Guard, parsePolicy } from "../mod.ts";

const POLICY = parsePolicy(`
version: 1
tools:
  read_ticket: { output: untrusted, on_tainted: allow }
  send_email:
    on_tainted: allow
    args:
      to: { require: trusted, on_violation: confirm }
`);

/** The outcome of replying to the address a stranger wrote in ticket `id`, after the user's `request`. */
async function reply(request: string, id: number): Promise<string> {
  const guard = new Guard(POLICY);
  guard.user(request);
  await guard.propose("read_ticket", { id }, { accept: true, run: () => "From bob@partner.example: call me back" });
  return guard.decide("send_email", { to: "bob@partner.example" }).outcome;
}

Deno.test("a short id the user names by its kind designates the call that read it (property)", async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 99 }), fc.constantFrom("ticket", "tickets"), async (id, kind) => {
      // Named by kind: the reply is the user's to confirm.
      assert.equal(await reply(`Reply to the sender of ${kind} ${id}`, id), "confirm");
      // The same number without its kind, or under another kind, names nothing: blocked with no question.
      assert.equal(await reply(`Reply to the sender, there are ${id} of them`, id), "block");
      assert.equal(await reply(`Reply to the sender of invoice ${id}`, id), "block");
    }),
    { numRuns: 40 },
  );
});
