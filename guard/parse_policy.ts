/**
 * Read a policy from YAML or JSONC text.
 *
 * @module
 */
import { load, YAMLException } from "npm:js-yaml@5.5.0";
import { parse as parseJsonc, type ParseError, printParseErrorCode } from "npm:jsonc-parser@3.3.1";
import { PolicyError } from "../core/errors.ts";
import { compilePolicy } from "./compile_policy.ts";
import type { Policy } from "./policy.ts";

/** The text formats a policy may be written in. */
export type PolicyFormat = "yaml" | "jsonc";

/**
 * Parse and validate a policy. The format is taken from `options.format`, else
 * from the source name's extension (`.json`/`.jsonc` are JSONC, anything else YAML).
 *
 * @example Load ProvGuard's example e-mail policy
 * ```ts
 * import { parsePolicy } from "./parse_policy.ts";
 * const policy = parsePolicy(`
 * version: 1
 * default:
 *   on_tainted: confirm
 * tools:
 *   read_inbox:
 *     output: untrusted
 *   send_email:
 *     args:
 *       to: {require: trusted}
 * `, { source: "email.yaml" });
 * console.log(Object.keys(policy.tools)); // ["read_inbox", "send_email"]
 * ```
 */
export function parsePolicy(text: string, options: { source?: string; format?: PolicyFormat } = {}): Policy {
  const source = options.source ?? "policy";
  const format = options.format ?? (/\.jsonc?$/i.test(source) ? "jsonc" : "yaml");
  return compilePolicy(format === "jsonc" ? readJsonc(text, source) : readYaml(text, source), source);
}

function readYaml(text: string, source: string): unknown {
  try {
    return load(text, { filename: source });
  } catch (error) {
    if (error instanceof YAMLException) {
      const mark = error.mark ? `line ${error.mark.line + 1}, column ${error.mark.column + 1}` : "(unknown position)";
      throw new PolicyError(source, [{
        path: mark,
        message: `invalid YAML: ${error.reason}`,
        hint: "fix the YAML syntax there",
      }]);
    }
    throw error;
  }
}

function readJsonc(text: string, source: string): unknown {
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) {
    throw new PolicyError(
      source,
      errors.map((error) => {
        const { line, column } = position(text, error.offset);
        return {
          path: `line ${line}, column ${column}`,
          message: `invalid JSONC: ${printParseErrorCode(error.error)}`,
          hint: "fix the JSON syntax there",
        };
      }),
    );
  }
  return value;
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1].length + 1 };
}
