/**
 * The core bundle inside QuickJS compiled to WebAssembly (`quickjs-emscripten`):
 * a JavaScript engine with no Web APIs at all. The bundle is loaded as an ES
 * module, unchanged, after the stand-ins of `adapters/build/quickjs_shims.ts`,
 * and must decide every call of every example trace exactly as `mod.ts` does in
 * Deno, and as `pab check` does.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { load } from "js-yaml";
import { getQuickJS, type QuickJSContext, type QuickJSWASMModule } from "quickjs-emscripten";
import { buildBundle } from "../adapters/build/bundle.ts";
import { installQuickJsShims } from "../adapters/build/quickjs_shims.ts";
import { readTrace, replayTrace, type Trace } from "../adapters/trace/mod.ts";
import { compilePolicy } from "../mod.ts";
import { type CoreReplay, type CoreReplayInput, replayWithCore } from "./_core_replay.ts";

const EXAMPLES = new URL("../traces/examples/", import.meta.url);
/** Web APIs a bundle might name. */
const WEB_APIS = [
  "TextEncoder",
  "TextDecoder",
  "structuredClone",
  "crypto",
  "URL",
  "URLSearchParams",
  "Intl",
  "atob",
  "btoa",
  "fetch",
  "Blob",
  "setTimeout",
  "queueMicrotask",
  "performance",
  "console",
  "WeakRef",
  "CompressionStream",
  "AbortController",
  "Event",
  "EventTarget",
];
/** What the core bundle names and QuickJS lacks: shimmed, or named but never called by pab (see quickjs_shims.ts). */
const EXPECTED_MISSING: { shimmed: string[]; unused: string[] } = {
  shimmed: ["TextEncoder", "structuredClone"],
  unused: [],
};

const quickjs: QuickJSWASMModule = await getQuickJS();
const coreDir = await Deno.makeTempDir({ dir: "/tmp", prefix: "pab-quickjs-" });
const core = await buildBundle(`${coreDir}/pab.core.min.js`, { entry: "adapters/build/core.ts" });
await Deno.remove(coreDir, { recursive: true });

/** Evaluate the bundle as a module named "pab" and run the replay on it inside a fresh QuickJS context. */
function replayInQuickJs(input: CoreReplayInput, shims: boolean): CoreReplay {
  const vm = quickjs.newContext();
  try {
    vm.runtime.setModuleLoader((name) => name === "pab" ? core.code : { error: new Error(`no module "${name}"`) });
    if (shims) unwrap(vm, vm.evalCode(`(${installQuickJsShims.toString()})(globalThis)`));
    const script = `import * as pab from "pab";
const replayWithCore = ${replayWithCore.toString()};
globalThis.done = replayWithCore(pab, ${
      JSON.stringify(input)
    }).then((replay) => { globalThis.result = JSON.stringify(replay); });`;
    unwrap(vm, vm.evalCode(script, "main.js", { type: "module" }));
    for (let round = 0; round < 1000; round++) {
      const jobs = vm.runtime.executePendingJobs();
      if (jobs.error) throw new Error(`QuickJS job failed: ${JSON.stringify(vm.dump(jobs.error))}`);
      if (jobs.value === 0) break;
    }
    const text = vm.getProp(vm.global, "result").consume((handle) => vm.dump(handle));
    if (typeof text !== "string") throw new Error("The replay did not finish inside QuickJS");
    return JSON.parse(text);
  } finally {
    vm.dispose();
  }
}

function unwrap(vm: QuickJSContext, result: ReturnType<QuickJSContext["evalCode"]>): void {
  if (result.error) {
    const error = vm.dump(result.error);
    result.error.dispose();
    throw new Error(`QuickJS: ${JSON.stringify(error)}`);
  }
  result.value.dispose();
}

/** Every example trace with every example policy, as replay inputs (policies as JSON text). */
async function exampleInputs(): Promise<{ name: string; input: CoreReplayInput; trace: Trace }[]> {
  const files = [...Deno.readDirSync(EXAMPLES)].map((entry) => entry.name).sort();
  const policies = files.filter((name) => /\.policy\.ya?ml$/.test(name));
  const traces = files.filter((name) => /\.(jsonl|json)$/.test(name) && !name.includes(".policy."));
  assert.ok(policies.length >= 2 && traces.length >= 2, files.join(", "));
  const inputs: { name: string; input: CoreReplayInput; trace: Trace }[] = [];
  for (const policyFile of policies) {
    const policyJson = JSON.stringify(load(await Deno.readTextFile(new URL(policyFile, EXAMPLES))));
    for (const traceFile of traces) {
      const trace = readTrace(await Deno.readTextFile(new URL(traceFile, EXAMPLES)), { source: traceFile });
      inputs.push({
        name: `${traceFile} under ${policyFile}`,
        input: { policyJson, policySource: policyFile.replace(/\.ya?ml$/, ".json"), events: trace.events },
        trace,
      });
    }
  }
  return inputs;
}

Deno.test("installQuickJsShims() encodes UTF-8 exactly as TextEncoder does, lone surrogates included", () => {
  const bare: Record<string, unknown> = {};
  installQuickJsShims(bare);
  const Shim = bare.TextEncoder as typeof TextEncoder;
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), (text) => {
      assert.deepEqual(new Shim().encode(text), new TextEncoder().encode(text));
    }),
    { numRuns: 500 },
  );
});

Deno.test("installQuickJsShims() clones plain data as structuredClone does, and refuses the rest", () => {
  const bare: Record<string, unknown> = {};
  installQuickJsShims(bare);
  const clone = bare.structuredClone as typeof structuredClone;
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      assert.deepEqual(clone(value), structuredClone(value));
    }),
  );
  const cyclic: Record<string, unknown> = { to: "a@b.example" };
  cyclic.self = cyclic;
  const copied = clone(cyclic);
  assert.equal(copied.self, copied);
  assert.notEqual(copied, cyclic);
  for (const value of [() => 1, { f: Symbol("s") }, new Uint8Array(2), new (class Box {})()]) {
    assert.throws(() => clone(value), { name: "DataCloneError", message: /^Cannot clone / });
  }
});

Deno.test("core bundle names no Web API that QuickJS lacks except the shimmed and the unused ones", () => {
  const vm = quickjs.newContext();
  try {
    const probe = vm.evalCode(
      `JSON.stringify(${JSON.stringify(WEB_APIS)}.filter((name) => typeof globalThis[name] === "undefined"))`,
    );
    const missing: string[] = JSON.parse(vm.dump(vm.unwrapResult(probe)));
    const named = missing.filter((name) => new RegExp(`(^|[^.\\w$])${name}\\b`).test(core.code));
    assert.deepEqual(named.sort(), [...EXPECTED_MISSING.shimmed, ...EXPECTED_MISSING.unused].sort());
  } finally {
    vm.dispose();
  }
});

Deno.test("core bundle decides every example trace in QuickJS exactly as mod.ts does in Deno", async () => {
  const inputs = await exampleInputs();
  for (const { name, input, trace } of inputs) {
    const deno = await replayWithCore(await import("../mod.ts"), input);
    assert.equal(deno.error, undefined, `${name}: ${deno.error}`);
    assert.ok(deno.calls.length > 0, name);
    const inQuickJs = replayInQuickJs(input, true);
    assert.deepEqual(inQuickJs, deno, name);
    // And as pab check does: the same replay through adapters/trace.
    const policy = compilePolicy(JSON.parse(input.policyJson), input.policySource);
    const approvers = Object.fromEntries(Object.keys(policy.approvers).map((approver) => [approver, () => true]));
    const casts = Object.fromEntries(
      Object.values(policy.casts).map((spec) => [spec.cast, () => {
        throw new Error("casts are code");
      }]),
    );
    const checked = await replayTrace(trace, policy, { guard: { approvers, casts } });
    assert.deepEqual(
      checked.calls.map((call) => [call.id, call.decision, call.reasons.map((reason) => reason.code)]),
      deno.calls.map((call) => [call.id, call.outcome, call.codes]),
      name,
    );
  }
  // The examples do exercise all three outcomes.
  const outcomes = new Set<string>();
  for (const { input } of inputs) {
    for (const call of (replayInQuickJs(input, true)).calls) outcomes.add(call.outcome);
  }
  assert.deepEqual([...outcomes].sort(), ["allow", "block", "confirm"]);
});

Deno.test("core bundle without the stand-ins fails closed in QuickJS, naming the missing API", async () => {
  const [{ input }] = await exampleInputs();
  const shimmed = replayInQuickJs(input, true);
  const bare = replayInQuickJs(input, false);
  assert.equal(bare.error, undefined);
  if (JSON.stringify(bare) === JSON.stringify(shimmed)) return; // the core no longer needs them
  const names = EXPECTED_MISSING.shimmed.join("|");
  assert.equal(bare.calls.length, shimmed.calls.length);
  for (const call of bare.calls) {
    assert.equal(call.outcome, "block");
    assert.deepEqual(call.codes, ["guard-error"]);
    assert.match(call.explanation, new RegExp(`the guard failed while deciding.*'(${names})' is not defined`));
  }
});

Deno.test("structuredClone stand-in keeps propose() deciding and running on its own copy in QuickJS", () => {
  // The caller changes the arguments while the user is asked; the call must still run with what was decided.
  const script = `import * as pab from "pab";
const guard = new pab.Guard(pab.compilePolicy({
  version: 1,
  tools: { read_inbox: { output: "untrusted", on_tainted: "allow" }, send_email: { on_tainted: "confirm" } },
}, "p.json"));
guard.user("Mail alice@corp.example");
guard.record("read_inbox", "hello");
const args = { to: "alice@corp.example" };
guard.propose("send_email", args, {
  accept: true,
  confirm: () => { args.to = "eve@attacker.example"; return true; },
  run: (copy) => copy.to,
}).then((result) => { globalThis.result = result.status + " " + result.value; }, (error) => { globalThis.result = String(error); });`;
  const run = (withStructuredClone: boolean) => {
    const vm = quickjs.newContext();
    try {
      vm.runtime.setModuleLoader((name) => name === "pab" ? core.code : { error: new Error(`no module "${name}"`) });
      unwrap(vm, vm.evalCode(`(${installQuickJsShims.toString()})(globalThis)`));
      if (!withStructuredClone) unwrap(vm, vm.evalCode("delete globalThis.structuredClone"));
      unwrap(vm, vm.evalCode(script, "main.js", { type: "module" }));
      vm.runtime.executePendingJobs();
      return vm.getProp(vm.global, "result").consume((handle) => vm.dump(handle));
    } finally {
      vm.dispose();
    }
  };
  assert.equal(run(true), "done alice@corp.example");
  // With TextEncoder only, the arguments cannot be copied, so the guard fails closed: the call never runs.
  assert.equal(run(false), "blocked undefined");
});
