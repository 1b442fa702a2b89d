/**
 * The guard a `pab mcp` proxy decides with: the policy, plus the server's own
 * signals as gradual labels (casts) for the tools the policy does not label.
 *
 * @module
 */
import { type Label, makeLabel } from "../../core/mod.ts";
import {
  type ApproverRule,
  type CastFunction,
  type CastPolicy,
  type ConfirmFunction,
  Guard,
  type Policy,
} from "../../guard/mod.ts";
import type { ServerSignals } from "./server_signals.ts";

/**
 * The cast name a policy uses to let the MCP server's signals label a tool:
 * `casts: { list_issues: { cast: mcp, ceiling: untrusted } }`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MCP_CAST } from "./guard_for_server.ts";
 * assert.equal(MCP_CAST, "mcp");
 * ```
 */
export const MCP_CAST = "mcp";

/**
 * The pseudo-tool a proxy records the server's tool definitions under: they
 * reach the model's context. Unless the policy labels it (`tools:
 * {"tools/list": {output: trusted}}` for a server whose descriptions the
 * deployer vouches for), it is read as untrusted input from the server.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DESCRIPTIONS_TOOL } from "./guard_for_server.ts";
 * assert.equal(DESCRIPTIONS_TOOL, "tools/list");
 * ```
 */
export const DESCRIPTIONS_TOOL = "tools/list";

/**
 * Every pseudo-tool a proxy records what the server shows the model outside
 * a call under: its tool definitions, the resources the client read, and the
 * prompts it got. Each is untrusted input unless the policy labels it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SERVER_INPUT_TOOLS } from "./guard_for_server.ts";
 * assert.deepEqual(SERVER_INPUT_TOOLS, ["tools/list", "resources/read", "prompts/get"]);
 * ```
 */
export const SERVER_INPUT_TOOLS: readonly string[] = Object.freeze([
  DESCRIPTIONS_TOOL,
  "resources/read",
  "prompts/get",
]);

/** How to make the guard for one server. */
export interface ServerGuardOptions {
  /** The server's tool names, from `tools/list`. */
  readonly tools: readonly string[];
  /** The server's signals, read when a cast settles a tool's data. */
  readonly signals: ServerSignals;
  /** The ceiling for tools the policy gives no output label and no cast; without it, they stay unlabelled. */
  readonly ceiling?: Label;
  /** Asked when a call needs the user's confirmation. */
  readonly confirm?: ConfirmFunction;
}

/**
 * Make the guard for one server. Tools the policy names under `casts` with
 * `cast: mcp` are labelled by the server's signals under their ceiling; with
 * `ceiling`, so is every other server tool the policy gives no output label
 * (it does not name the tool, or names it without `output`). Other
 * casts are code that a proxy cannot run: they fail, so their data stays
 * unlabelled at a check. What the server shows the model outside a call,
 * recorded under {@linkcode SERVER_INPUT_TOOLS}, is untrusted unless the
 * policy labels those pseudo-tools.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compilePolicy } from "../../guard/mod.ts";
 * import { makeLabel } from "../../core/mod.ts";
 * import { guardForServer } from "./guard_for_server.ts";
 * import { ServerSignals } from "./server_signals.ts";
 * const policy = compilePolicy({ version: 1 });
 * const guard = guardForServer(policy, {
 *   tools: ["search"],
 *   signals: new ServerSignals(policy),
 *   ceiling: makeLabel(["public"], "suspicious"),
 * });
 * assert.deepEqual(Object.keys(guard.policy.casts), ["tools/list", "resources/read", "prompts/get", "search"]);
 * ```
 */
export function guardForServer(policy: Policy, options: ServerGuardOptions): Guard {
  const labelled = labelServerTools(policy, options);
  return new Guard(labelled.policy, {
    casts: labelled.casts,
    approvers: labelled.approvers,
    ...(options.confirm ? { confirm: options.confirm } : {}),
  });
}

/**
 * The policy's approvers, each refusing with the reason: their business
 * rules are code (`new Guard(policy, { approvers })`), which a proxy cannot
 * run, so a call that needs one stays blocked, and every other call is
 * decided as usual (a guard without them could not be made at all).
 */
function refusingApprovers(policy: Policy): Record<string, ApproverRule> {
  const approvers: Record<string, ApproverRule> = {};
  for (const name of Object.keys(policy.approvers)) {
    approvers[name] = () =>
      `pab mcp cannot run the rule of approver "${name}" (approver rules are code: use the library, or pab serve)`;
  }
  return approvers;
}

/**
 * The policy, cast functions and approver rules (each refusing: a proxy
 * cannot run an approver's code) {@linkcode guardForServer} makes its guard
 * with, for callers that make guards themselves (`pab mcp --store`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compilePolicy } from "../../guard/mod.ts";
 * import { makeLabel } from "../../core/mod.ts";
 * import { labelServerTools } from "./guard_for_server.ts";
 * import { ServerSignals } from "./server_signals.ts";
 * const policy = compilePolicy({ version: 1 });
 * const labelled = labelServerTools(policy, {
 *   tools: ["search"],
 *   signals: new ServerSignals(policy),
 *   ceiling: makeLabel(["public"], "suspicious"),
 * });
 * assert.deepEqual(Object.keys(labelled.casts), ["mcp"]);
 * ```
 */
export function labelServerTools(
  policy: Policy,
  options: ServerGuardOptions,
): {
  readonly policy: Policy;
  readonly casts: Readonly<Record<string, CastFunction>>;
  readonly approvers: Readonly<Record<string, ApproverRule>>;
} {
  const casts = new Map<string, CastPolicy>(Object.entries(policy.casts));
  for (const input of SERVER_INPUT_TOOLS) {
    const labelled = Object.hasOwn(policy.tools, input) && policy.tools[input].output.kind !== "unlabelled";
    if (!labelled && !casts.has(input)) {
      casts.set(input, Object.freeze({ cast: MCP_CAST, ceiling: makeLabel(policy.top.readers, "suspicious") }));
    }
  }
  if (options.ceiling) {
    for (const tool of options.tools) {
      const unlabelled = !Object.hasOwn(policy.tools, tool) || policy.tools[tool].output.kind === "unlabelled";
      if (unlabelled && !casts.has(tool)) {
        casts.set(tool, Object.freeze({ cast: MCP_CAST, ceiling: options.ceiling }));
      }
    }
  }
  const labelled: Policy = Object.freeze({ ...policy, casts: Object.freeze(Object.fromEntries(casts)) });
  const functions: Record<string, CastFunction> = {};
  for (const spec of casts.values()) {
    functions[spec.cast] = spec.cast === MCP_CAST
      ? (tool) => options.signals.labelOf(tool, casts.get(tool)?.ceiling ?? spec.ceiling)
      : () => {
        throw new Error(`cast "${spec.cast}" is code registered by an agent, and pab mcp cannot run it`);
      };
  }
  return { policy: labelled, casts: functions, approvers: refusingApprovers(policy) };
}
