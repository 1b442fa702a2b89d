/**
 * Ids a client names in a body (the `ledger` a new session joins, the
 * `reservation` a commit finishes) answer the same on every store: an id no
 * session or reservation can have is unknown (404), never a store fault
 * (a KV key has a size limit; memory has none), and nothing is made.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { SessionHost } from "../adapters/serve/mod.ts";
import { apiHandler } from "../adapters/serve/http_api.ts";
import { openStore } from "../adapters/store/mod.ts";
import { SERVE_POLICY_YAML } from "./_serve_fixtures.ts";

const policy = parsePolicy(SERVE_POLICY_YAML, { source: "serve.yaml" });

type Handle = (request: Request) => Promise<Response>;

async function post(handle: Handle, path: string, body: unknown, token?: string) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token !== undefined) headers["pab-session-token"] = token;
  const response = await handle(
    new Request(`http://localhost:4517${path}`, { method: "POST", headers, body: JSON.stringify(body) }),
  );
  const json = await response.json();
  return { status: response.status, code: json.error?.code as string | undefined, json };
}

/** Ids of any length and characters, from short to far past a KV key's 2 KiB. */
const ids = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 300 }),
  fc.tuple(fc.constantFrom("s_", "r_", "tu_", ""), fc.integer({ min: 150, max: 6000 })).map(([prefix, length]) =>
    prefix + "a".repeat(length)
  ),
);

Deno.test("a ledger or reservation id answers 404 on a KV store as in memory, whatever its length (property)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_client_ids_" });
  const stores = [await openStore(":memory:"), await openStore(`${dir}/serve.kv`)];
  try {
    const servers = await Promise.all(stores.map(async (store) => {
      const handle = apiHandler(new SessionHost(policy, store), { version: "test" });
      const made = await post(handle, "/v1/sessions", {});
      return { handle, session: made.json.session as string, token: made.json.token as string };
    }));
    await fc.assert(
      fc.asyncProperty(ids, async (id) => {
        const answers = [];
        for (const { handle, session, token } of servers) {
          const ledger = await post(handle, "/v1/sessions", { ledger: id }, token);
          const commit = await post(handle, `/v1/sessions/${session}/commit`, { reservation: id }, token);
          answers.push([ledger.status, ledger.code, commit.status, commit.code]);
        }
        assert.deepEqual(answers[1], answers[0], `KV and memory differ for an id of ${id.length} characters`);
        const [ledgerStatus, ledgerCode, commitStatus, commitCode] = answers[0];
        assert.equal(ledgerStatus, 404);
        assert.equal(ledgerCode, "ERR_SESSION_UNKNOWN");
        if (id === "") assert.equal(commitCode, "ERR_REQUEST_INVALID");
        else assert.deepEqual([commitStatus, commitCode], [404, "ERR_RESERVATION_UNKNOWN"]);
      }),
      { numRuns: 80 },
    );
  } finally {
    for (const store of stores) store.close();
  }
});
