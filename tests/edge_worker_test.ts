/**
 * The browser bundle in a simulated edge runtime: a module Worker with no
 * permissions at all (`deno: { permissions: "none" }`). It cannot read files,
 * so the test hands it the bundle as a `blob:` URL and ships the scenario as
 * source text.
 */
import assert from "node:assert/strict";
import {
  assertScenario,
  freshBundle,
  referenceScenario,
  runBundleScenario,
  scenarioInput,
  type ScenarioResult,
} from "./_bundle_scenario.ts";

interface WorkerReport {
  readonly denied: Readonly<Record<string, string>>;
  readonly result?: ScenarioResult;
  readonly error?: string;
}

// Runs in the worker: what each privileged operation does there, then the scenario.
const PROBES = `
async function probe(run) {
  try { await run(); return "allowed"; } catch (error) { return \`\${error?.name}: \${error?.message}\`; }
}
const denied = {
  read: await probe(() => Deno.readTextFile("/etc/hostname")),
  write: await probe(() => Deno.writeTextFile("/tmp/pab-edge-probe", "x")),
  env: await probe(() => Deno.env.get("HOME")),
  net: await probe(() => fetch("http://localhost:8000/")),
  run: await probe(() => new Deno.Command("true").output()),
};`;

function workerSource(bundleUrl: string): string {
  return `${PROBES}
const runBundleScenario = ${runBundleScenario.toString()};
try {
  postMessage({ denied, result: await runBundleScenario(${JSON.stringify(scenarioInput(bundleUrl))}) });
} catch (error) {
  postMessage({ denied, error: String(error?.stack ?? error) });
}`;
}

function runInWorker(source: string): Promise<WorkerReport> {
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  const worker = new Worker(url, { type: "module", deno: { permissions: "none" } });
  return new Promise<WorkerReport>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<WorkerReport>) => resolve(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      reject(new Error(`The worker failed: ${event.message}`));
    };
  }).finally(() => {
    worker.terminate();
    URL.revokeObjectURL(url);
  });
}

Deno.test("bundle decides the hijack in a Worker with no permissions", async () => {
  const bundle = await freshBundle();
  const bundleUrl = URL.createObjectURL(new Blob([bundle.code], { type: "text/javascript" }));
  try {
    const report = await runInWorker(workerSource(bundleUrl));
    assert.equal(report.error, undefined);
    assert.deepEqual(Object.keys(report.denied), ["read", "write", "env", "net", "run"]);
    for (const [name, outcome] of Object.entries(report.denied)) {
      // fetch wraps the refusal in a TypeError; the message still says which permission is missing.
      assert.match(outcome, new RegExp(`^(NotCapable|TypeError): .*Requires ${name} access`), `${name}: ${outcome}`);
    }
    assert.ok(report.result);
    assertScenario(report.result, await referenceScenario());
    assert.equal(report.result.fingerprint.subtle, report.result.fingerprint.pab);
  } finally {
    URL.revokeObjectURL(bundleUrl);
    await Deno.remove(bundle.dir, { recursive: true });
  }
});

Deno.test("a Worker with no permissions cannot import the bundle from a file", async () => {
  // Shows why the test above hands over a blob: URL, and that the worker really is sandboxed.
  const bundle = await freshBundle();
  try {
    const report = await runInWorker(workerSource(new URL(`file://${bundle.path}`).href));
    assert.equal(report.result, undefined);
    assert.match(report.error ?? "", /NotCapable|Requires read access/);
  } finally {
    await Deno.remove(bundle.dir, { recursive: true });
  }
});
