/**
 * `pab audit verify --store` passes on a KV store that `pab serve` used,
 * sessions that were deleted or expired included: the store drops an ended
 * session's inputs by design (its chain stays, ending with why), which is
 * not an input removed behind the chain's back. Removing a live session's
 * input is still found.
 */
import assert from "node:assert/strict";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { SessionHost } from "../adapters/serve/mod.ts";
import { apiHandler } from "../adapters/serve/http_api.ts";
import { openStore } from "../adapters/store/mod.ts";
import { ROOT, SERVE_POLICY_YAML } from "./_serve_fixtures.ts";

const policy = parsePolicy(SERVE_POLICY_YAML, { source: "serve.yaml" });

async function send(
  handle: (request: Request) => Promise<Response>,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token !== undefined) headers["pab-session-token"] = token;
  const init = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
  const response = await handle(new Request(`http://localhost:4517${path}`, init));
  return { status: response.status, json: await response.json() };
}

/** Whether a KV key is one of `session`'s recorded inputs (the store's layout: `["pab", "in", SESSION, SEQ, PART]`). */
function isInput(key: Deno.KvKey, session: string): boolean {
  return key[0] === "pab" && key[1] === "in" && key[2] === session;
}

async function verify(file: string): Promise<{ ok: boolean; problem?: { code: string; message: string } }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--unstable-kv",
      "--allow-read",
      "--allow-write=/tmp",
      "cli.ts",
      "audit",
      "verify",
      "--store",
      file,
      "--json",
    ],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

Deno.test("pab audit verify --store passes after pab serve sessions were deleted or expired, and still finds a live session's input removed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_serve_audit_" });
  const file = `${dir}/serve.kv`;
  const store = await openStore(file);
  let now = Date.parse("2026-12-01T10:00:00.000Z");
  const host = new SessionHost(policy, store, { limits: { idleSeconds: 60 }, now: () => new Date(now) });
  const handle = apiHandler(host, { version: "test" });
  const sessions = [];
  for (let i = 0; i < 3; i++) {
    const made = await send(handle, "POST", "/v1/sessions", {});
    const { session, token } = made.json as { session: string; token: string };
    const base = `/v1/sessions/${session}`;
    assert.equal((await send(handle, "POST", `${base}/messages`, { role: "user", content: "hi" }, token)).status, 200);
    assert.equal(
      (await send(handle, "POST", `${base}/results`, { tool: "read_inbox", output: "x" }, token)).status,
      200,
    );
    sessions.push({ session, token, base });
  }
  const [live, deleted, expired] = sessions;
  assert.equal((await send(handle, "DELETE", deleted.base, undefined, deleted.token)).status, 200);
  now += 30_000;
  assert.equal(
    (await send(handle, "POST", `${live.base}/messages`, { role: "user", content: "on" }, live.token)).status,
    200,
  );
  now += 45_000;
  host.expireIdle();
  const gone = await send(handle, "POST", `${expired.base}/decide`, { tool: "refund", args: {} }, expired.token);
  assert.equal(gone.json.error.code, "ERR_SESSION_UNKNOWN");
  // The expired session's chain and inputs catch up in the background.
  const kv = await Deno.openKv(file);
  try {
    for (let wait = 0; wait < 100; wait++) {
      const left = await Array.fromAsync(kv.list({ prefix: [] }));
      if (!left.some(({ key }) => isInput(key, expired.session))) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    kv.close();
  }
  store.close();
  const verdict = await verify(file);
  assert.equal(verdict.ok, true, JSON.stringify(verdict));

  // A live session's input removed behind its chain's back is still found.
  const raw = await Deno.openKv(file);
  try {
    const inputs = await Array.fromAsync(raw.list({ prefix: [] }));
    const one = inputs.find(({ key }) => isInput(key, live.session));
    assert.ok(one, `no input key of the live session among ${inputs.length} keys`);
    await raw.delete(one.key);
  } finally {
    raw.close();
  }
  const tampered = await verify(file);
  assert.equal(tampered.ok, false);
});
