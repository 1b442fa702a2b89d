/**
 * Every error code of every layer, in closed lists: each layer lists its codes
 * at run time, no two layers share one, every code the source raises or
 * answers with is listed by the layer of the class that carries it, and
 * `pab serve` takes every status from one table.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import fc from "fast-check";
import { errorText, isRecord, PabError } from "../core/mod.ts";
import {
  BranchClosedError,
  GUARD_ERROR_CODES,
  LabelError,
  PolicyError,
  ReservationError,
  RulingError,
  SchemaError,
  UnknownSchemaError,
} from "../guard/mod.ts";
import { POLICY_ERROR_CODES } from "../guard/policy/mod.ts";
import { TRACE_ERROR_CODES, TraceError } from "../adapters/trace/mod.ts";
import { STORE_ERROR_CODES, StoreError } from "../adapters/store/mod.ts";
import { HTTP_STATUS, REQUEST_ERROR_CODES, RequestError } from "../adapters/serve/mod.ts";
import { errorAnswer } from "../adapters/serve/error_answer.ts";
import { HOOK_ERROR_CODES, HookInputError } from "../adapters/claude_code/mod.ts";
import { AUDIT_PROBLEM_CODES } from "../adapters/audit/mod.ts";
import {
  CLI_ERROR_CODES,
  DependencyError,
  EncodingError,
  InputTooLargeError,
  IoError,
  PermissionError,
  UnsafePathError,
  UsageError,
} from "../adapters/cli/mod.ts";
import { REPO_ROOT } from "../adapters/build/bundle.ts";

/** Each layer's closed list, keyed by the folder that owns its classes (the longest folder wins). */
const LAYERS: Readonly<Record<string, readonly string[]>> = {
  "guard": GUARD_ERROR_CODES,
  "guard/policy": POLICY_ERROR_CODES,
  "adapters/trace": TRACE_ERROR_CODES,
  "adapters/store": STORE_ERROR_CODES,
  "adapters/serve": REQUEST_ERROR_CODES,
  "adapters/claude_code": HOOK_ERROR_CODES,
  "adapters/audit": AUDIT_PROBLEM_CODES,
  "adapters/cli": CLI_ERROR_CODES,
};

const ALL_CODES = new Set(Object.values(LAYERS).flat());

/** The layer a source file belongs to: the longest listed folder holding it. */
function layerOf(file: string): string | undefined {
  return Object.keys(LAYERS).filter((folder) => file.startsWith(`${folder}/`)).sort((a, b) => b.length - a.length)[0];
}

/** The source files (no tests, no dependencies), without their doc comments' lines (whose examples may make up codes). */
async function sourceFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) {
        if (!["node_modules", "tests", "dist", ".git"].includes(entry.name)) await walk(path);
      } else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) {
        const text = await Deno.readTextFile(path);
        files.set(relative(REPO_ROOT, path), text.split("\n").filter((line) => !/^\s*\*/.test(line)).join("\n"));
      }
    }
  };
  await walk(REPO_ROOT);
  return files;
}

Deno.test("each layer's codes are distinct, spelled ERR_WORDS, and no two layers share a code", () => {
  const seen = new Map<string, string>();
  for (const [layer, codes] of Object.entries(LAYERS)) {
    assert.ok(codes.length > 0, layer);
    for (const code of codes) {
      assert.match(code, /^ERR_[A-Z]+(_[A-Z]+)*$/, `${layer}: ${code}`);
      assert.equal(seen.get(code), undefined, `${code} is listed by ${seen.get(code)} and ${layer}`);
      seen.set(code, layer);
    }
  }
});

Deno.test("every class of every layer carries a code its layer lists", () => {
  const made: [string, PabError<`ERR_${string}`>][] = [
    ["guard", new SchemaError("m")],
    ["guard", new UnknownSchemaError("m")],
    ["guard", new RulingError("m")],
    ["guard", new BranchClosedError("m")],
    ["guard", new LabelError("m")],
    ["guard", new ReservationError("m")],
    ["guard/policy", new PolicyError("p", [])],
    ["adapters/trace", new TraceError("m")],
    ["adapters/claude_code", new HookInputError("m")],
    ["adapters/cli", new UsageError("m")],
    ["adapters/cli", new IoError("m")],
    ["adapters/cli", new EncodingError("m")],
    ["adapters/cli", new InputTooLargeError("m")],
    ["adapters/cli", new UnsafePathError("m")],
    ["adapters/cli", new DependencyError("m")],
    ["adapters/cli", new PermissionError("m")],
    ...STORE_ERROR_CODES.map((code) => ["adapters/store", new StoreError(code, "m")] as [string, StoreError]),
    ...REQUEST_ERROR_CODES.map((code) => ["adapters/serve", new RequestError(code, "m")] as [string, RequestError]),
  ];
  for (const [layer, error] of made) {
    assert.ok(LAYERS[layer].includes(error.code), `${error.name}: ${error.code} is not in ${layer}'s list`);
    assert.ok(error instanceof PabError && error instanceof Error);
  }
});

Deno.test("every ERR_ code the source spells is listed, and every class raises only its own layer's codes", async () => {
  const files = await sourceFiles();
  const owner = new Map<string, string>();
  for (const [file, text] of files) {
    for (const match of text.matchAll(/class (\w+) extends PabError<([^>]+)>/g)) {
      const layer = layerOf(file);
      assert.ok(layer, `${file}: class ${match[1]} extends PabError outside a layer with a code list`);
      owner.set(match[1], layer);
    }
  }
  assert.ok(owner.size >= 16, `found only ${owner.size} error classes`);
  for (const [file, text] of files) {
    for (const [literal] of text.matchAll(/(?<=["'`])ERR_[A-Z_]+(?=["'`])/g)) {
      assert.ok(ALL_CODES.has(literal), `${file}: "${literal}" is in no layer's list`);
    }
    for (const match of text.matchAll(/new (\w+)\(\s*"(ERR_[A-Z_]+)"/g)) {
      const layer = owner.get(match[1]);
      assert.ok(layer, `${file}: new ${match[1]}("${match[2]}") is not a class of a layer`);
      assert.ok(LAYERS[layer].includes(match[2]), `${file}: new ${match[1]}("${match[2]}") is not in ${layer}'s list`);
    }
    const layer = layerOf(file);
    for (const match of text.matchAll(/super\(\s*"(ERR_[A-Z_]+)"/g)) {
      assert.ok(layer && LAYERS[layer].includes(match[1]), `${file}: super("${match[1]}") is not in its layer's list`);
    }
  }
});

Deno.test("pab serve's status table covers exactly the codes it answers with, 5xx only for the server's faults", () => {
  const answered = [...REQUEST_ERROR_CODES, ...STORE_ERROR_CODES, ...GUARD_ERROR_CODES, ...POLICY_ERROR_CODES];
  assert.deepEqual(Object.keys(HTTP_STATUS).sort(), [...answered].sort());
  const serverFaults = new Set<string>([
    "ERR_OVERLOADED",
    "ERR_SHUTTING_DOWN",
    "ERR_STORE_UNAVAILABLE",
    "ERR_INTERNAL",
  ]);
  for (const [code, status] of Object.entries(HTTP_STATUS)) {
    assert.ok(status >= 400 && status < 600, code);
    const server = serverFaults.has(code) || (code.startsWith("ERR_STORE_") && code !== "ERR_STORE_LIMIT");
    assert.equal(status >= 500, server, `${code} answers ${status}`);
  }
  assert.equal(HTTP_STATUS.ERR_STORE_LIMIT, 413);
});

Deno.test("property: errorAnswer() answers every coded error with its code and the table's status", async () => {
  const thrown = fc.oneof(
    fc.constantFrom(...REQUEST_ERROR_CODES).map((code) => new RequestError(code, "m") as Error),
    fc.constantFrom(...STORE_ERROR_CODES).map((code) => new StoreError(code, "m") as Error),
    fc.constantFrom(new RulingError("m"), new ReservationError("m"), new PolicyError("p", [])),
  );
  await fc.assert(fc.asyncProperty(thrown, async (error) => {
    const answer = errorAnswer(error);
    const code = (error as PabError<`ERR_${string}`>).code;
    assert.equal(answer.status, HTTP_STATUS[code as keyof typeof HTTP_STATUS]);
    assert.equal((await answer.json()).error.code, code);
  }));
});

Deno.test("errorAnswer() answers another layer's coded error 400, a TypeError 400 and anything else 500", async () => {
  const hook = errorAnswer(new HookInputError("no session_id"));
  assert.deepEqual([hook.status, (await hook.json()).error.code], [400, "ERR_HOOK_INPUT"]);
  const typed = errorAnswer(new TypeError("not an object"));
  assert.deepEqual([typed.status, (await typed.json()).error.code], [400, "ERR_REQUEST_INVALID"]);
  const odd = errorAnswer({ toString: () => "odd" });
  assert.deepEqual([odd.status, (await odd.json()).error.code], [500, "ERR_INTERNAL"]);
});

Deno.test("the README's Errors table names only listed codes, and the serve section names every request code", async () => {
  const readme = await Deno.readTextFile(join(REPO_ROOT, "README.md"));
  const table = readme.slice(readme.indexOf("### Errors"), readme.indexOf("\n## ", readme.indexOf("### Errors")));
  const listed = [...table.matchAll(/`(ERR_[A-Z_]+)`/g)].map((match) => match[1]);
  assert.ok(listed.length >= 10);
  for (const code of listed) assert.ok(ALL_CODES.has(code), `README lists ${code}, which no layer lists`);
  for (const code of [...GUARD_ERROR_CODES, ...POLICY_ERROR_CODES, ...TRACE_ERROR_CODES]) {
    assert.ok(listed.includes(code), `README's Errors table misses ${code}`);
  }
  for (const code of REQUEST_ERROR_CODES) assert.ok(readme.includes(`\`${code}\``), `README misses ${code}`);
});

Deno.test("property: errorText() never throws and gives an Error's message or the value as text", () => {
  fc.assert(fc.property(fc.anything(), fc.string(), (value, message) => {
    assert.equal(errorText(new RangeError(message)), message);
    const text = errorText(value);
    assert.equal(typeof text, "string");
  }));
  assert.equal(errorText(Object.create(null)), "an unprintable error");
  assert.equal(errorText(42), "42");
});

Deno.test("property: isRecord() holds exactly for non-null, non-array objects", () => {
  fc.assert(fc.property(fc.anything(), (value) => {
    assert.equal(isRecord(value), typeof value === "object" && value !== null && !Array.isArray(value));
  }));
});
