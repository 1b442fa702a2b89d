/**
 * `pab mcp`'s options (issue 19): what `pab mcp config` prints into a host's
 * entry, the proxy parses back to the same options (files made absolute),
 * whatever the values; and every form names exactly one server.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { resolve } from "node:path";
import { checkProxyInput, PROXY_OPTIONS, proxyArguments } from "../adapters/cli/mcp/mcp_options.ts";
import type { CommandInput } from "../adapters/cli/shell/define_command.ts";
import { parseArgs } from "../adapters/cli/shell/parse_args.ts";

function inputOf(args: readonly string[]): CommandInput {
  const { values, positionals } = parseArgs(args, PROXY_OPTIONS, "mcp");
  return {
    positionals,
    string: (name) => typeof values[name] === "string" ? values[name] as string : undefined,
    flag: (name) => values[name] === true,
    integer: (name) => typeof values[name] === "number" ? values[name] as number : undefined,
  };
}

/** Any text a user may give as a value (of at least one character), "-" and "=" first included. */
const text = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.constantFrom("-x", "--policy", "=", "a=b", " spaced out ", "-"),
);

const given = fc.record({
  policy: text,
  url: fc.option(fc.integer({ min: 1, max: 65535 }).map((port) => `http://localhost:${port}/mcp`), { nil: undefined }),
  hide: fc.option(text, { nil: undefined }),
  ceiling: fc.option(text, { nil: undefined }),
  request: fc.option(text, { nil: undefined }),
  "request-file": fc.option(text, { nil: undefined }),
  "no-ask-values": fc.boolean(),
  "max-message-bytes": fc.option(fc.nat({ max: 1 << 30 }), { nil: undefined }),
  store: fc.option(fc.oneof(text, fc.constant("https://kv.example/db")), { nil: undefined }),
  session: fc.option(text, { nil: undefined }),
});

Deno.test("proxyArguments: the options a host's entry passes parse back to the same options, with files absolute", () => {
  fc.assert(fc.property(given, (values) => {
    const args = Object.entries(values).flatMap(([name, value]) =>
      value === undefined || value === false ? [] : value === true ? [`--${name}`] : [`--${name}=${value}`]
    );
    const printed = proxyArguments(inputOf(args), "/work");
    const parsed = parseArgs(printed, PROXY_OPTIONS, "mcp");
    assert.deepEqual(parsed.positionals, []);
    for (const [name, value] of Object.entries(values)) {
      const expected = value === false ? undefined : value;
      const absolute = typeof expected === "string" &&
        (name === "policy" || name === "request-file" || (name === "store" && !/^[a-z][a-z0-9+.-]*:/i.test(expected)));
      const got = parsed.values[name];
      assert.deepEqual(got, absolute ? resolve("/work", expected) : expected, name);
    }
    // Printed again from elsewhere, nothing changes: the paths are already absolute.
    assert.deepEqual(proxyArguments(inputOf(printed), "/elsewhere"), printed);
  }));
});

Deno.test("checkProxyInput: exactly one server, -- CMD ARGS or --url, else a coded usage error", () => {
  fc.assert(fc.property(
    fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 3 }),
    fc.boolean(),
    (server, url) => {
      const args = ["--policy=p.yaml", ...(url ? ["--url=http://localhost:1/mcp"] : []), "--", ...server];
      const one = (server.length > 0) !== url;
      if (one) {
        const checked = checkProxyInput(inputOf(args));
        assert.deepEqual(checked.server, server);
        assert.equal(checked.url?.href, url ? "http://localhost:1/mcp" : undefined);
      } else {
        assert.throws(() => checkProxyInput(inputOf(args)), (error: Error & { code?: string }) => {
          assert.equal(error.code, "ERR_CLI_USAGE");
          assert.match(error.message, url ? /^name the server once/ : /^name the server to start after --/);
          return true;
        });
      }
    },
  ));
});
