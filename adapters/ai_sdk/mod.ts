/**
 * pab in the Vercel AI SDK: guard a `tools` object and answer the SDK's tool
 * approval from the guard's decisions. Imported on its own
 * (`@pab/pab/ai-sdk`), so `ai` stays out of pab's main module.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Guard } from "../../guard/mod.ts";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { guardTools } from "./mod.ts";
 * const { tools, toolApproval } = guardTools(new Guard(parsePolicy("version: 1\n")), {});
 * assert.deepEqual(tools, {});
 * assert.equal(toolApproval({ toolCall: { toolName: "search", input: {} } }), "not-applicable");
 * ```
 *
 * @module
 */
export { type GuardedTools, guardTools, type GuardToolsOptions, type ToolsObject } from "./guard_tools.ts";
export { type ApprovalQuestion, type ApprovalStatus, type HostToolApproval } from "./host_approval.ts";
