/**
 * The server token (`--token`) in the forms HTTP allows: the `Bearer` scheme
 * in any case (RFC 9110: a scheme's case does not matter) passes with the
 * exact token; anything else, the token in another case or with anything
 * added or missing included, is 401 `ERR_UNAUTHORIZED`.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { admission } from "../adapters/serve/http_api.ts";

const TOKEN = "a-token-of-16-chars-or-more";

function request(authorization: string): Request {
  return new Request("http://localhost:4517/v1/health", { headers: { authorization } });
}

/** "bearer" with each letter in either case. */
const anyCaseBearer = fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }).map((upper) =>
  [..."bearer"].map((letter, i) => upper[i] ? letter.toUpperCase() : letter).join("")
);

Deno.test("admission() takes the Bearer scheme in any case with the exact token (property)", () => {
  const admit = admission({ token: TOKEN });
  fc.assert(fc.property(anyCaseBearer, (scheme) => admit(request(`${scheme} ${TOKEN}`))));
});

Deno.test("admission() refuses any other Authorization, the token changed in any way included (property)", () => {
  const admit = admission({ token: TOKEN });
  const changed = fc.oneof(
    fc.string(),
    fc.tuple(anyCaseBearer, fc.string()).map(([scheme, token]) => `${scheme} ${token}`),
    fc.tuple(anyCaseBearer, fc.string({ minLength: 1 })).map(([scheme, extra]) => `${scheme} ${TOKEN}${extra}`),
    fc.tuple(anyCaseBearer, fc.nat(TOKEN.length - 1)).map(([scheme, cut]) => `${scheme} ${TOKEN.slice(0, cut)}`),
    anyCaseBearer.map((scheme) => `${scheme} ${TOKEN.toUpperCase()}`),
    anyCaseBearer.map((scheme) => `${scheme}  ${TOKEN}`),
    fc.constant(TOKEN),
  );
  fc.assert(
    fc.property(changed, (authorization) => {
      let sent: Request;
      try {
        sent = request(authorization);
      } catch {
        return; // not a header value at all: no client can send it
      }
      // As the server reads it (HTTP trims a header value's ends).
      const value = sent.headers.get("authorization") ?? "";
      fc.pre(!/^bearer /i.test(value) || value.slice(7) !== TOKEN);
      assert.throws(() => admit(sent), { code: "ERR_UNAUTHORIZED" });
    }),
    { numRuns: 500 },
  );
});
