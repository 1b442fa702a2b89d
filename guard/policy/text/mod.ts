/**
 * Reading policy text: YAML and JSONC. The only folder of pab that imports a
 * YAML or JSONC parser.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "./mod.ts";
 * assert.equal(parsePolicy('{"version": 1}', { source: "p.jsonc" }).version, 1);
 * ```
 *
 * @module
 */
export { parsePolicy, type PolicyFormat } from "./parse_policy.ts";
