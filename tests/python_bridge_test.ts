/**
 * Runs the Python bridge's pytest suite (`adapters/python/tests`: the client, the AgentDojo pipeline element, the
 * scripted model and the live run end to end) with the venv that `.ci/run` makes (`$PAB_VENV`, default
 * `/opt/pab-venv`). Without that venv the test is skipped, except under `CI=true`, where it fails.
 *
 * @module
 */
import assert from "node:assert/strict";

const venv = Deno.env.get("PAB_VENV") ?? "/opt/pab-venv";
const python = `${venv}/bin/python`;
const ci = Deno.env.get("CI") === "true";
const root = new URL("..", import.meta.url).pathname;
const present = (() => {
  try {
    return Deno.statSync(python).isFile;
  } catch {
    return false;
  }
})();
/** Fewer tests than this means pytest did not really collect the suite. */
const EXPECTED_AT_LEAST = 53;

Deno.test({
  name: present
    ? "pytest adapters/python/tests passes in the Python venv"
    : `pytest adapters/python/tests (${
      ci ? "fails" : "skipped"
    }: no Python venv at ${venv}; run .ci/run or set PAB_VENV)`,
  ignore: !present && !ci,
  async fn() {
    assert.ok(present, `Cannot run the Python tests: "${python}" is missing; run .ci/run or set PAB_VENV`);
    const { code, stdout, stderr } = await new Deno.Command(python, {
      args: ["-m", "pytest", "adapters/python/tests", "-q", "-rs", "-p", "no:cacheprovider"],
      cwd: root,
      env: {
        PAB_DENO: Deno.execPath(),
        // This checkout's sources first, whichever checkout the venv's editable install points at.
        PYTHONPATH: `${root}adapters/python/src`,
        PYTHONDONTWRITEBYTECODE: "1",
      },
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(15 * 60_000),
    }).output();
    const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
    assert.notEqual(code, 5, `pytest collected no tests:\n${output}`);
    assert.equal(code, 0, `pytest failed with exit code ${code}:\n${output}`);
    const passed = Number(/(\d+) passed/.exec(output)?.[1] ?? "0");
    assert.ok(
      passed >= EXPECTED_AT_LEAST,
      `pytest passed only ${passed} tests, expected ${EXPECTED_AT_LEAST}:\n${output}`,
    );
    if (ci) assert.doesNotMatch(output, /\d+ skipped/, `pytest skipped tests under CI=true:\n${output}`);
    if (ci) assert.match(output, /pab server used: the real pab serve/, `CI=true needs the real pab serve:\n${output}`);
  },
});
