/**
 * The doors pab publishes, and the exact names behind each. A published door
 * is a promise to users: a name added to or taken from one must be a choice,
 * made here. The folders' inner doors (`core/mod.ts`, `harvest/mod.ts`,
 * `guard/mod.ts`) are for pab's own layers and are not published.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "../adapters/build/bundle.ts";
import { entryExports } from "../adapters/build/declarations.ts";

const config = JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "deno.json")));

/** The core door: a guard from a JSON policy, with no YAML or JSONC parser. */
const CORE = [
  "Decision",
  "Gap",
  "Guard",
  "GuardOptions",
  "Label",
  "Outcome",
  "PabError",
  "PartialLabel",
  "Policy",
  "PolicyError",
  "ProposeOptions",
  "ProposeResult",
  "Recovery",
  "RecoveryStep",
  "Ruling",
  "RulingError",
  "ToolCallDenied",
  "compilePolicy",
  "explainDecision",
  "formatPartialLabel",
  "formatRecovery",
  "makeLabel",
  "withLabel",
];

/** Every published door (deno.json `exports`) and the exact names it exports, types included. */
const DOORS: Readonly<Record<string, { readonly entry: string; readonly names: readonly string[] }>> = {
  ".": {
    entry: "./mod.ts",
    names: [
      ...CORE,
      "ApproverRule",
      "CastFunction",
      "ConfirmFunction",
      "EffectStore",
      "LedgerEvent",
      "ProtectOptions",
      "Reservation",
      "ReserveResult",
      "RulingRequest",
      "ToolCall",
      "ToolFunction",
      "parsePolicy",
    ],
  },
  "./core": { entry: "./adapters/build/core.ts", names: CORE },
  "./mcp": {
    entry: "./adapters/mcp/mod.ts",
    names: [
      "AllowQuestion",
      "ChildServer",
      "HttpServer",
      "MCP_CAST",
      "McpRelay",
      "McpRelayOptions",
      "Proposer",
      "ProposerFactory",
      "ProxyOptions",
      "ServerGuardOptions",
      "ServerSignals",
      "StdioProxyOptions",
      "ToolAnnotations",
      "ToolResult",
      "deniedResult",
      "guardForServer",
      "labelFromAnnotations",
      "labelFromIfc",
      "labelServerTools",
      "rulingElicitation",
      "runStdioProxy",
      "userAllowed",
    ],
  },
  "./ai-sdk": {
    entry: "./adapters/ai_sdk/mod.ts",
    names: [
      "ApprovalQuestion",
      "ApprovalStatus",
      "GuardedTools",
      "GuardToolsOptions",
      "HostToolApproval",
      "ToolsObject",
      "guardTools",
    ],
  },
  "./openai-agents": {
    entry: "./adapters/openai_agents/mod.ts",
    names: ["AgentTool", "explainApproval", "guardAgentTools", "ModelInputFilter", "recordModelInput"],
  },
  "./openai": {
    entry: "./adapters/openai/mod.ts",
    names: [
      "ChatCustomToolCall",
      "ChatFunctionToolCall",
      "ChatMessage",
      "ChatToolCall",
      "ChatToolMessage",
      "answerToolCalls",
      "recordMessage",
    ],
  },
  "./trace": {
    entry: "./adapters/trace/mod.ts",
    names: [
      "Actor",
      "AssistantEvent",
      "CallEvent",
      "NumberedEvent",
      "PabTraceHeader",
      "PabTraceLines",
      "ReadTraceOptions",
      "ReplayNote",
      "ReplayOptions",
      "ReplayReason",
      "ReplayedCall",
      "ResultEvent",
      "StreamedPabTrace",
      "SystemEvent",
      "TRACE_ERROR_CODES",
      "TRACE_SCHEMA_VERSION",
      "Trace",
      "TraceError",
      "TraceErrorCode",
      "TraceEvent",
      "TraceFormat",
      "TraceReplay",
      "UserEvent",
      "detectTraceFormat",
      "feedRecordedResult",
      "formatTrace",
      "openPabTrace",
      "pabTraceLines",
      "readAnthropicLog",
      "readClaudeCodeLog",
      "readMcpTraffic",
      "readOpenAiLog",
      "readPabTrace",
      "readResponsesLog",
      "readTrace",
      "replayEvents",
      "replayTrace",
      "textLines",
    ],
  },
  // The command line: run (`deno run jsr:@pab/pab/cli`), not imported.
  "./cli": { entry: "./cli.ts", names: [] },
};

/** The inner doors of pab's layers: each is for the layer above, never a published subpath. */
const INNER_DOORS = ["./core/mod.ts", "./harvest/mod.ts", "./guard/mod.ts", "./guard/policy/text/mod.ts"];

Deno.test("deno.json publishes exactly the user doors, and no layer's inner door", () => {
  const published = Object.fromEntries(Object.entries(DOORS).map(([door, { entry }]) => [door, entry]));
  assert.deepEqual(config.exports, published);
  for (const inner of INNER_DOORS) assert.ok(!Object.values(config.exports).includes(inner), inner);
});

for (const [door, { entry, names }] of Object.entries(DOORS)) {
  Deno.test(`the "${door}" door exports exactly its allow-list`, async () => {
    const path = join(REPO_ROOT, entry);
    const exported: string[] = await entryExports(
      path,
      join(REPO_ROOT, "deno.json"),
      join(REPO_ROOT, "tests/deno.lock"),
    )
      .catch((error) => {
        if (names.length === 0 && /found none/.test(String(error))) return [] as string[];
        throw error;
      });
    const sorted = [...names].sort();
    const added = exported.filter((name) => !sorted.includes(name));
    const removed = sorted.filter((name) => !exported.includes(name));
    assert.deepEqual(
      { added, removed },
      { added: [], removed: [] },
      `"${door}" (${entry}) changed: a published name is a promise to users; if this is meant, change tests/doors_test.ts`,
    );
    assert.equal(new Set(names).size, names.length, `"${door}" lists a name twice`);
    // Every runtime value of the door is on its list (the list adds the types).
    if (entry !== "./cli.ts") {
      const module = await import(path);
      assert.deepEqual(Object.keys(module).filter((name) => !sorted.includes(name)), []);
    }
  });
}

Deno.test("the root door holds every name of the core door, as the same binding", async () => {
  const root = await import(join(REPO_ROOT, "mod.ts"));
  const core = await import(join(REPO_ROOT, "adapters/build/core.ts"));
  for (const name of DOORS["./core"].names) assert.ok(DOORS["."].names.includes(name), name);
  for (const [name, value] of Object.entries(core)) assert.equal(root[name], value, name);
});
