/**
 * Read a policy file for a command: the format from its extension, every
 * problem reported with where it is and how to fix it.
 *
 * @module
 */
import { parsePolicy, type Policy, type PolicyFormat } from "../../guard/mod.ts";
import { IoError } from "./cli_error.ts";
import { fileProblem, type Io } from "./io.ts";

/**
 * The policy format a file name stands for: `.yaml`/`.yml` are YAML,
 * `.json`/`.jsonc` are JSONC; anything else is `undefined`.
 *
 * @example
 * ```ts
 * import { policyFormatOf } from "./load_policy.ts";
 * console.log(policyFormatOf("email.yml"), policyFormatOf("email.jsonc"), policyFormatOf("email.txt")); // "yaml" "jsonc" undefined
 * ```
 */
export function policyFormatOf(path: string): PolicyFormat | undefined {
  if (/\.ya?ml$/i.test(path)) return "yaml";
  if (/\.jsonc?$/i.test(path)) return "jsonc";
  return undefined;
}

/**
 * Read and parse a policy file. Throws {@linkcode IoError} when the file
 * cannot be read or its extension names no format, and `PolicyError` (with
 * every issue) when it is not a valid policy.
 *
 * @example
 * ```ts
 * import { loadPolicyFile } from "./load_policy.ts";
 * import { memoryIo } from "./memory_io.ts";
 * const { io } = memoryIo({ files: { "p.yaml": "version: 1\ntools:\n  read_inbox: {output: untrusted}\n" } });
 * console.log(Object.keys((await loadPolicyFile("p.yaml", io)).tools)); // ["read_inbox"]
 * ```
 */
export async function loadPolicyFile(path: string, io: Pick<Io, "readTextFile">): Promise<Policy> {
  const format = policyFormatOf(path);
  if (!format) {
    throw new IoError(
      `Cannot read policy "${path}": unknown extension (name it .yaml or .yml for YAML, .json or .jsonc for JSONC)`,
    );
  }
  let text: string;
  try {
    text = await io.readTextFile(path);
  } catch (error) {
    throw new IoError(`Cannot read policy "${path}": ${fileProblem(error)} (${readHint(error)})`);
  }
  return parsePolicy(text, { source: path, format });
}

/**
 * How to fix a failed read.
 *
 * @example
 * ```ts
 * import { readHint } from "./load_policy.ts";
 * console.log(readHint(new Deno.errors.NotFound("x"))); // "check the path"
 * ```
 */
export function readHint(error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "NotFound") return "check the path";
  if (name === "NotCapable") return "run with --allow-read (deno task pab grants it)";
  if (name === "IsADirectory") return "name a file";
  return "check the file";
}
