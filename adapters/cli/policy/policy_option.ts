/**
 * The `-p, --policy FILE` option of the commands that decide calls.
 *
 * @module
 */
import type { OptionDef } from "../shell/define_command.ts";

/**
 * The required `-p, --policy FILE` option, described as `description` says.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { policyOption } from "./policy_option.ts";
 * assert.deepEqual(policyOption(), {
 *   type: "string",
 *   short: "p",
 *   value: "FILE",
 *   required: true,
 *   description: "The policy (.yaml, .yml, .json or .jsonc)",
 * });
 * ```
 */
export function policyOption(description = "The policy (.yaml, .yml, .json or .jsonc)"): OptionDef {
  return { type: "string", short: "p", value: "FILE", required: true, description };
}
