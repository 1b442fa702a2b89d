// A property test shared by the one-thread and the worker-thread servers (apart from _serve_fixtures.ts, which
// processes run without the test import map load).
import assert from "node:assert/strict";
import fc from "fast-check";
import { call } from "./_serve_fixtures.ts";

/** Send random bodies (JSON, call-shaped, or not JSON) to every endpoint of session `id`: none may answer 5xx. */
export async function assertNo5xx(base: string, id: string, numRuns: number): Promise<void> {
  const endpoints = ["messages", "results", "decide", "propose", "commit", "rulings", "plan", "audit"];
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...endpoints),
      fc.oneof(fc.jsonValue(), fc.record({ tool: fc.string(), args: fc.jsonValue() }), fc.string()),
      async (endpoint, body) => {
        const result = await call(base, `/v1/sessions/${id}/${endpoint}`, undefined, {
          method: endpoint === "audit" ? "GET" : "POST",
          ...(endpoint === "audit" ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
        });
        assert.ok(
          result.status < 500,
          `${endpoint} ${JSON.stringify(body)} -> ${result.status} ${JSON.stringify(result.json)}`,
        );
      },
    ),
    { numRuns },
  );
}
