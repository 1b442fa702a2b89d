/**
 * Call arguments hold only numbers JavaScript reads exactly: an integer past
 * ±2^53 (or one too large to hold) would be decided, bound to a ruling and
 * matched against provenance as another value than the one the tool gets
 * (a ruling for 9007199254740992 approved 9007199254740993), so every
 * endpoint that asks about a call refuses it with 400 `ERR_REQUEST_INVALID`
 * naming where it is, and records nothing; any other number passes. A
 * record of what ran (`results`) takes it as read: refusing the record would
 * leave the session knowing less, so laxer.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { SessionHost } from "../adapters/serve/mod.ts";
import { apiHandler } from "../adapters/serve/http_api.ts";
import { openStore } from "../adapters/store/mod.ts";
import { SERVE_POLICY_YAML } from "./_serve_fixtures.ts";

const policy = parsePolicy(SERVE_POLICY_YAML, { source: "serve.yaml" });
const HOLE = "__number_here__";

/** Number literals JavaScript cannot hold exactly. */
const inexact = fc.oneof(
  fc.bigInt({ min: 2n ** 53n + 1n, max: 2n ** 80n }).map((n) => n.toString()),
  fc.bigInt({ min: 2n ** 53n + 1n, max: 2n ** 80n }).map((n) => `-${n}`),
  fc.constantFrom("1e400", "-1e999", "1E309", "123456789012345678901234567890"),
);

/** Safe JSON values. */
const safe = fc.jsonValue({ maxDepth: 3 }).map((value) =>
  JSON.parse(JSON.stringify(value, (_, v) => typeof v === "number" && !Number.isSafeInteger(v) ? 1.5 : v))
);

/** Args with the hole at a random place: its value, its place in the shown path. */
const argsWithHole = fc.tuple(
  fc.dictionary(fc.string({ maxLength: 6 }), safe, { maxKeys: 4 }),
  fc.string({ maxLength: 6 }),
)
  .chain(([args, key]) =>
    fc.constantFrom(
      { ...args, [key]: HOLE },
      { ...args, [key]: [1, HOLE] },
      { ...args, [key]: { inner: HOLE } },
    )
  );

const ENDPOINTS = [
  (args: string) => ["decide", `{"tool":"refund","args":${args}}`],
  (args: string) => ["propose", `{"tool":"refund","args":${args}}`],
  (args: string) => ["rulings", `{"approver":"manager","tool":"refund","args":${args}}`],
  (args: string) => ["plan", `{"tool":"refund","args":${args}}`],
];

Deno.test("every endpoint that asks about a call refuses a number JavaScript cannot hold exactly, and only that (property)", async () => {
  const store = await openStore(":memory:");
  const handle = apiHandler(new SessionHost(policy, store), { version: "test" });
  const post = async (path: string, body: string, token?: string) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token !== undefined) headers["pab-session-token"] = token;
    const response = await handle(new Request(`http://localhost:4517${path}`, { method: "POST", headers, body }));
    return { status: response.status, json: await response.json() };
  };
  try {
    const made = await post("/v1/sessions", "{}");
    const { session, token } = made.json as { session: string; token: string };
    const chain = async () => {
      const response = await handle(
        new Request(`http://localhost:4517/v1/sessions/${session}/audit`, { headers: { "pab-session-token": token } }),
      );
      return ((await response.json()).events as unknown[]).length;
    };
    await fc.assert(
      fc.asyncProperty(argsWithHole, inexact, fc.constantFrom(...ENDPOINTS), async (args, literal, endpoint) => {
        const before = await chain();
        const [action, body] = endpoint(JSON.stringify(args).replace(`"${HOLE}"`, literal));
        const refused = await post(`/v1/sessions/${session}/${action}`, body, token);
        assert.equal(refused.status, 400, JSON.stringify(refused.json));
        assert.equal(refused.json.error.code, "ERR_REQUEST_INVALID");
        assert.match(
          refused.json.error.message,
          /^Cannot read the \w+ request: args.* holds a number JavaScript cannot/,
        );
        assert.equal(await chain(), before, "a refused request records nothing");
        // A record of what ran is taken as read: refusing it would leave the session knowing less.
        const ran = `{"tool":"read_inbox","args":${JSON.stringify(args).replace(`"${HOLE}"`, literal)},"output":"x"}`;
        assert.equal((await post(`/v1/sessions/${session}/results`, ran, token)).status, 200);
        const [, fine] = endpoint(JSON.stringify(args).replace(`"${HOLE}"`, "9007199254740991"));
        const passed = await post(`/v1/sessions/${session}/${action}`, fine, token);
        assert.doesNotMatch(JSON.stringify(passed.json), /cannot hold exactly/);
      }),
      { numRuns: 60 },
    );
  } finally {
    store.close();
  }
});
