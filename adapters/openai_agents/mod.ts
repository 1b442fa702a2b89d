/**
 * pab in the OpenAI Agents SDK: tool input guardrails, `needsApproval` and
 * recorded outputs for an agent's function tools, and the runner's
 * `callModelInputFilter` that records every other tool result the model reads. Imported on its own
 * (`@pab/pab/openai-agents`), so `@openai/agents` stays out of pab's main
 * module.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Guard } from "../../guard/mod.ts";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { guardAgentTools } from "./mod.ts";
 * assert.deepEqual(guardAgentTools(new Guard(parsePolicy("version: 1\n")), []), []);
 * ```
 *
 * @module
 */
export { type AgentTool, explainApproval, guardAgentTools } from "./guard_agent_tools.ts";
export { type ModelInputFilter, recordModelInput } from "./record_model_input.ts";
