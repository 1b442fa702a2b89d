/**
 * The demo's policy, ProvGuard style. `traces/examples/demo.policy.yaml` is
 * the same text (a test keeps them equal), so `pab check` can replay what
 * `pab demo --record` saves.
 *
 * @module
 */

/**
 * The demo policy as YAML text: the inbox and web pages are untrusted, and
 * `send_email`'s recipient must come from a trusted source.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEMO_POLICY } from "./demo_policy.ts";
 * import { parsePolicy } from "../../../guard/policy/text/mod.ts";
 * assert.deepEqual(Object.keys(parsePolicy(DEMO_POLICY).tools), ["read_inbox", "fetch_page", "get_contacts", "send_email"]);
 * ```
 */
export const DEMO_POLICY = `# The policy of \`pab demo\` (print it with \`pab demo --print-policy\`).
version: 1
default:
  on_tainted: confirm
tools:
  read_inbox: {output: untrusted, on_tainted: allow}
  fetch_page: {output: untrusted, on_tainted: allow}
  get_contacts: {output: trusted}
  send_email:
    on_tainted: confirm
    args:
      to: {require: trusted, on_violation: block}
`;

/**
 * The name the demo policy is reported under.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEMO_POLICY_SOURCE } from "./demo_policy.ts";
 * assert.deepEqual(DEMO_POLICY_SOURCE, "demo.policy.yaml");
 * ```
 */
export const DEMO_POLICY_SOURCE = "demo.policy.yaml";
