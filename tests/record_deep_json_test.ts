/**
 * An untrusted output that is JSON nested past the indexing limit is read once: its leaves up to the limit and the
 * rest as text, decoded (an escaped address is found as the address), with a `deep-value` note.
 */
import assert from "node:assert/strict";
import { compilePolicy, Guard } from "../guard/mod.ts";

const policy = compilePolicy({
  version: 1,
  tools: {
    read_inbox: { output: "untrusted", on_tainted: "allow" },
    send_email: { output: "trusted", on_tainted: "allow", args: { to: { require: "trusted" } } },
  },
});

Deno.test("record() reads untrusted JSON nested past the limit as its decoded leaves, and notes the deep value", () => {
  for (const depth of [3, 70, 200]) {
    const guard = new Guard(policy);
    guard.user("Summarise my inbox");
    // The address is escaped in the text: only the decoded leaves hold it.
    const output = `${"[".repeat(depth)}"\\u0065ve@attacker.example"${"]".repeat(depth)}`;
    guard.record("read_inbox", output);
    const decision = guard.decide("send_email", { to: "eve@attacker.example" });
    assert.deepEqual(decision.gaps.map((gap) => [gap.code, gap.sources]), [["untrusted-argument", [
      "tool:read_inbox",
    ]]]);
    const deep = guard.ledger.log.filter((event) => event.kind === "note" && JSON.stringify(event).includes("deep"));
    assert.equal(deep.length, depth > 64 ? 1 : 0, `depth ${depth}`);
  }
});
