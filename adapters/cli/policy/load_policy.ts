/**
 * Read a policy for a command: from a file (the format from its extension)
 * or standard input (the format from its first character), every problem
 * reported with where it is and how to fix it.
 *
 * @module
 */
import type { Policy } from "../../../guard/mod.ts";
import { parsePolicy, type PolicyFormat } from "../../../guard/policy/text/mod.ts";
import { IoError } from "../shell/cli_error.ts";
import { type Io, isStdin } from "../io/io.ts";
import { readInputText } from "../io/read_input.ts";

/**
 * The policy format a file name stands for: `.yaml`/`.yml` are YAML,
 * `.json`/`.jsonc` are JSONC; anything else is `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { policyFormatOf } from "./load_policy.ts";
 * assert.deepEqual([policyFormatOf("email.yml"), policyFormatOf("email.jsonc"), policyFormatOf("email.txt")], ["yaml", "jsonc", undefined]);
 * ```
 */
export function policyFormatOf(path: string): PolicyFormat | undefined {
  if (/\.ya?ml$/i.test(path)) return "yaml";
  if (/\.jsonc?$/i.test(path)) return "jsonc";
  return undefined;
}

/**
 * A policy's text, where it came from and its format.
 *
 * @example
 * ```ts
 * import type { PolicyText } from "./load_policy.ts";
 * const text: PolicyText = { source: "-", format: "yaml", text: "version: 1\n" };
 * ```
 */
export interface PolicyText {
  /** The path as given (`-` for standard input). */
  readonly source: string;
  /** YAML or JSONC. */
  readonly format: PolicyFormat;
  /** The text. */
  readonly text: string;
}

/**
 * Read a policy's text. Standard input (`-`, `/dev/stdin`) is JSONC when it
 * starts with `{` and YAML otherwise. Throws `IoError` when the file cannot be
 * read or its extension names no format, and the errors of `readInputText()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readPolicyText } from "./load_policy.ts";
 * import { memoryIo } from "../io/memory_io.ts";
 * const { io } = memoryIo({ stdin: '{"version": 1}' });
 * assert.deepEqual(await readPolicyText("-", io), { source: "-", format: "jsonc", text: '{"version": 1}' });
 * ```
 */
export async function readPolicyText(
  path: string,
  io: Pick<Io, "openFile" | "readTextFile">,
  maxBytes?: number,
): Promise<PolicyText> {
  const named = policyFormatOf(path);
  if (!named && !isStdin(path)) {
    throw new IoError(
      `Cannot read policy "${path}": unknown extension (name it .yaml or .yml for YAML, .json or .jsonc for JSONC)`,
    );
  }
  const text = await readInputText(path, io, { what: "policy", maxBytes });
  const format = named ?? (text.replace(/^\uFEFF/, "").trimStart().startsWith("{") ? "jsonc" : "yaml");
  return { source: path, format, text };
}

/**
 * Read and parse a policy. Throws as {@linkcode readPolicyText} does, and
 * `PolicyError` (with every issue) when it is not a valid policy.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadPolicyFile } from "./load_policy.ts";
 * import { memoryIo } from "../io/memory_io.ts";
 * const { io } = memoryIo({ files: { "p.yaml": "version: 1\ntools:\n  read_inbox: {output: untrusted}\n" } });
 * assert.deepEqual(Object.keys((await loadPolicyFile("p.yaml", io)).tools), ["read_inbox"]);
 * ```
 */
export async function loadPolicyFile(
  path: string,
  io: Pick<Io, "openFile" | "readTextFile">,
  maxBytes?: number,
): Promise<Policy> {
  const { text, format } = await readPolicyText(path, io, maxBytes);
  return parsePolicy(text, { source: path, format });
}
