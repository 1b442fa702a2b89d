import assert from "node:assert/strict";
import fc from "fast-check";
import { isAddressList, parseAddressList } from "../harvest/mod.ts";

Deno.test("parseAddressList() splits on commas and semicolons outside quotes and angle brackets", () => {
  assert.deepEqual(parseAddressList("a@x.example, b@y.example"), ["a@x.example", "b@y.example"]);
  assert.deepEqual(parseAddressList('"Doe, Jane" <jane@x.example>; <b@y.example>'), ["jane@x.example", "b@y.example"]);
  assert.deepEqual(parseAddressList("mailto:a@x.example,, ;"), ["a@x.example"]);
  assert.deepEqual(parseAddressList(""), []);
});

Deno.test("isAddressList() is true only when every part is one bare address", () => {
  assert.equal(isAddressList("a@x.example, b@y.example"), true);
  assert.equal(isAddressList("Name <a@x.example>"), true);
  assert.equal(isAddressList("a@x.example"), false);
  assert.equal(isAddressList("a@x.example, see you"), false);
  assert.equal(isAddressList("a@b@c, d@e"), false);
  assert.equal(isAddressList("no addresses, here"), false);
});

Deno.test("parseAddressList() finds every address of a list however it is written", () => {
  const address = fc.tuple(fc.stringMatching(/^[a-z0-9]{1,6}$/), fc.stringMatching(/^[a-z]{1,6}\.example$/))
    .map(([local, domain]) => `${local}@${domain}`);
  const written = fc.tuple(address, fc.constantFrom("plain", "named", "quoted")).map(([a, style]) =>
    style === "plain" ? a : style === "named" ? `Some One <${a}>` : `"One, Some" <${a}>`
  );
  fc.assert(
    fc.property(
      fc.array(written, { minLength: 1, maxLength: 5 }),
      fc.constantFrom(",", ", ", ";", " ; "),
      (items, sep) => {
        const expected = items.map((item) => item.match(/<([^>]+)>/)?.[1] ?? item);
        assert.deepEqual(parseAddressList(items.join(sep)), expected);
      },
    ),
  );
});
