/**
 * `pab serve` refuses what it cannot serve with a usage error (exit 2) that
 * says what and how to fix, never "failed unexpectedly": a port in use, an
 * interface the sandbox does not grant, and an `--allow-host` that no Host
 * header could ever match.
 */
import assert from "node:assert/strict";
import { policyFolder, ROOT, SERVE_FLAGS } from "./_serve_fixtures.ts";

async function serve(args: string[]): Promise<{ code: number; stderr: string }> {
  const { policy } = await policyFolder();
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...SERVE_FLAGS, "cli.ts", "serve", "--policy", policy, ...args],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
    signal: AbortSignal.timeout(20_000),
  }).output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

for (const workers of ["1", "2"]) {
  Deno.test(`pab serve --workers ${workers} on a port in use exits 2 saying so, not "failed unexpectedly"`, async () => {
    const taken = Deno.listen({ hostname: "localhost", port: 0 });
    try {
      const { code, stderr } = await serve(["--port", String(taken.addr.port), "--workers", workers]);
      assert.equal(code, 2, stderr);
      assert.match(stderr, /Address already in use/);
      assert.doesNotMatch(stderr, /failed unexpectedly|please report/);
    } finally {
      taken.close();
    }
  });
}

Deno.test("pab serve on an interface the sandbox does not grant exits 2 naming the flag", async () => {
  const { code, stderr } = await serve(["--hostname", "::1", "--port", "0"]);
  assert.equal(code, 2, stderr);
  assert.match(stderr, /cannot listen on ::1 port 0: .*--allow-net/);
  assert.doesNotMatch(stderr, /failed unexpectedly|please report/);
});

Deno.test("pab serve refuses an --allow-host no Host header could match (a port, a scheme, a path)", async () => {
  for (const given of ["proxy.lan:8080", "http://proxy.lan", "proxy.lan/x", "a b"]) {
    const { code, stderr } = await serve(["--port", "0", "--allow-host", `ok.lan,${given}`]);
    assert.equal(code, 2, stderr);
    assert.match(stderr, /option --allow-host takes host names without a port, scheme or path/);
  }
});
