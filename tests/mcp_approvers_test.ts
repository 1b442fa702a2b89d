/**
 * `pab mcp` in front of a policy that names approvers: their rules are code,
 * which a proxy cannot run, so each refuses with the reason, and every call
 * that needs no approver is decided as usual (the README's own example runs
 * `pab mcp` with `traces/examples/complete.policy.yaml`, which names two).
 */
import assert from "node:assert/strict";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { guardForServer, ServerSignals } from "../adapters/mcp/mod.ts";

const ROOT = new URL("../", import.meta.url).pathname;

Deno.test("guardForServer() makes a guard for a policy with approvers, which refuse with the reason", async () => {
  const complete = parsePolicy(await Deno.readTextFile(`${ROOT}traces/examples/complete.policy.yaml`));
  const made = guardForServer(complete, { tools: ["read_file"], signals: new ServerSignals(complete) });
  assert.equal(made.decide("read_file", { system: "hr", name: "alice-chen.md" }).outcome, "allow");

  const policy = parsePolicy(`
version: 1
readers: { groups: [public, staff] }
approvers:
  press: { mandate: [recipient] }
tools:
  read_memo: { output: { readers: [staff], trust: trusted }, on_tainted: allow }
  post: { output: trusted, on_tainted: allow, recipients: [{ arg: to }] }
`);
  const guard = guardForServer(policy, { tools: ["read_memo", "post"], signals: new ServerSignals(policy) });
  await guard.propose("read_memo", {}, { accept: true, run: () => "staff memo" });
  assert.throws(
    () => guard.requestRuling("press", "post", { to: "press@outside.example" }),
    /pab mcp cannot run the rule of approver "press" \(approver rules are code: use the library, or pab serve\)/,
  );
  const result = await guard.propose("post", { to: "press@outside.example" }, { accept: true, run: () => "posted" });
  assert.equal(result.status, "blocked");
});
