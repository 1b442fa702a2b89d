/**
 * Read a policy from YAML or JSONC text. This is the only file of pab that
 * imports a YAML or JSONC parser: code that compiles a policy object with
 * `compilePolicy` ships neither.
 *
 * @module
 */
import { isRecord } from "../../../core/mod.ts";
import { FAILSAFE_SCHEMA, load, YAMLException } from "npm:js-yaml@5.5.0";
import { createScanner, type Node, type ParseError, parseTree, printParseErrorCode } from "npm:jsonc-parser@3.3.1";
import { compilePolicy, type Policy, PolicyError, type PolicyIssue } from "../mod.ts";

/** The text formats a policy may be written in. */
export type PolicyFormat = "yaml" | "jsonc";

/**
 * Parse and validate a policy. The format is taken from `options.format`, else
 * from the source name's extension (`.json`/`.jsonc` are JSONC, anything else
 * YAML). Duplicate keys are errors in both formats. In YAML, allow-list
 * entries keep the exact text they were written with: `0012345678` stays
 * `"0012345678"`, not the number 12345678.
 *
 * @example Load ProvGuard's example e-mail policy
 * ```ts
 * import assert from "node:assert/strict";
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
 *       account: {allow: [0012345678]}
 * `, { source: "email.yaml" });
 * assert.deepEqual(Object.keys(policy.tools), ["read_inbox", "send_email"]);
 * assert.deepEqual(policy.tools.send_email.args.account.allow, ["0012345678"]);
 * ```
 */
export function parsePolicy(text: string, options: { source?: string; format?: PolicyFormat } = {}): Policy {
  if (typeof text !== "string") throw new TypeError("Cannot parse a policy: pass its text as a string");
  const source = options.source ?? "policy";
  const format = options.format ?? (/\.jsonc?$/i.test(source) ? "jsonc" : "yaml");
  const raw = format === "jsonc" ? readJsonc(text, source) : readYaml(text, source);
  const invisible = invisibleKeys(raw);
  if (invisible.length) throw new PolicyError(source, invisible);
  return compilePolicy(raw, source);
}

/** An invisible format character: zero-width spaces and joiners, bidirectional marks, the byte order mark, tags. */
const INVISIBLE = /\p{Cf}/u;

/**
 * Every key holding an invisible format character: `send\u200b_email` reads
 * as `send_email` in an editor, but a rule under it would never name the tool
 * the author sees. Iterative, each shared node once.
 */
function invisibleKeys(value: unknown): PolicyIssue[] {
  const issues: PolicyIssue[] = [];
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: "" }];
  const seen = new Set<object>();
  while (stack.length) {
    const item = stack.pop()!;
    if (typeof item.value !== "object" || item.value === null || seen.has(item.value)) continue;
    seen.add(item.value);
    for (const [key, child] of Object.entries(item.value)) {
      const at = item.path ? `${item.path}.${key}` : key;
      const found = INVISIBLE.exec(key);
      if (found) {
        issues.push({
          path: at,
          message: `the key holds the invisible character U+${
            found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")
          }, so it names something other than what it shows`,
          hint: "delete the character: retype the key",
        });
      }
      stack.push({ value: child, path: at });
    }
  }
  return issues;
}

function readYaml(text: string, source: string): unknown {
  try {
    const value = load(text, { filename: source });
    const values = expandedValues(value, Math.max(MAX_EXPANDED_VALUES, text.length));
    if (values !== undefined) {
      throw new PolicyError(source, [{
        path: "(top level)",
        message: `its YAML aliases expand it to more than ${values.toLocaleString("en-US")} values`,
        hint: "write the repeated parts out, or alias fewer of them: anchors that alias anchors multiply",
      }]);
    }
    // The same text with every scalar kept as written: keys must read as written, allow lists take their entries from it.
    const written = load(text, { filename: source, schema: FAILSAFE_SCHEMA });
    const issues = keysNotAsWritten(value, written);
    if (issues.length) throw new PolicyError(source, issues);
    keepAllowText(value, written);
    return value;
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

/**
 * How many values YAML aliases may expand a policy to beyond its own text's
 * length: a policy written out in full can hold at most about one value per
 * character, so aliases never make it more work than that, or than this.
 */
const MAX_EXPANDED_VALUES = 1_000_000;

/**
 * `limit` when `value`, with every alias expanded as the guard walks it, holds
 * more than `limit` values; else undefined. Each shared node's size is counted
 * once (js-yaml's depth limit bounds the recursion), so a bomb of a thousand
 * bytes that expands to 10^30 values is measured in microseconds.
 */
function expandedValues(value: unknown, limit: number): number | undefined {
  const sizes = new Map<object, number>();
  const size = (node: unknown): number => {
    if (typeof node !== "object" || node === null) return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    let total = 1;
    for (const child of Object.values(node)) if ((total += size(child)) > limit) break;
    sizes.set(node, total);
    return total;
  };
  return size(value) > limit ? limit : undefined;
}

/**
 * Every mapping key YAML reads as another text than the one written (`0x10:`
 * is the key "16", `~:` the key "null", `1.0:` the key "1"): a rule would
 * name one tool, argument or catalogue entry and pab match another. Walks
 * the tree as parsed and the tree as written side by side, iteratively, each
 * shared (aliased) node once.
 */
function keysNotAsWritten(value: unknown, written: unknown): PolicyIssue[] {
  const issues: PolicyIssue[] = [];
  const stack: Array<{ value: unknown; written: unknown; path: string }> = [{ value, written, path: "" }];
  const seen = new Set<object>();
  while (stack.length) {
    const item = stack.pop()!;
    if (typeof item.value !== "object" || item.value === null || seen.has(item.value)) continue;
    seen.add(item.value);
    if (Array.isArray(item.value)) {
      const writtenItems: unknown[] = Array.isArray(item.written) ? item.written : [];
      item.value.forEach((element, i) =>
        stack.push({ value: element, written: writtenItems[i], path: item.path ? `${item.path}.${i}` : String(i) })
      );
      continue;
    }
    if (!isRecord(item.written)) continue;
    for (const key of Object.keys(item.written)) {
      const at = item.path ? `${item.path}.${key}` : key;
      if (!Object.hasOwn(item.value, key)) {
        issues.push({
          path: at,
          message: `the key "${key}" is read by YAML as ${readAs(key)}, not as the text written`,
          hint: `quote it ("${key}":) to mean the text, or write the value it stands for`,
        });
        continue;
      }
      stack.push({ value: (item.value as Record<string, unknown>)[key], written: item.written[key], path: at });
    }
  }
  return issues;
}

/** What YAML reads a plain key as, for the message. */
function readAs(key: string): string {
  try {
    const value: unknown = load(key);
    return `${value === null ? "null" : typeof value} "${String(value)}"`;
  } catch {
    return "another value";
  }
}

/** Replace each scalar of `tools.*.args.*.allow` with its text as written. */
function keepAllowText(value: unknown, text: unknown): void {
  const tools = child(value, "tools");
  const textTools = child(text, "tools");
  for (const tool of objectKeys(tools)) {
    const args = child(child(tools, tool), "args");
    const textArgs = child(child(textTools, tool), "args");
    for (const arg of objectKeys(args)) {
      const allow = child(child(args, arg), "allow");
      const textAllow = child(child(textArgs, arg), "allow");
      if (!Array.isArray(allow) || !Array.isArray(textAllow) || allow.length !== textAllow.length) continue;
      allow.forEach((item, i) => {
        if (item === null || ["number", "boolean"].includes(typeof item)) allow[i] = textAllow[i];
      });
    }
  }
}

function child(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function objectKeys(value: unknown): string[] {
  return isRecord(value) ? Object.keys(value) : [];
}

/** How deep a JSONC policy may nest, as js-yaml's own limit for YAML: the parser and the tree walk recurse. */
const MAX_JSONC_DEPTH = 100;

function readJsonc(text: string, source: string): unknown {
  const tooDeep = deeperThan(text, MAX_JSONC_DEPTH);
  if (tooDeep !== undefined) {
    throw new PolicyError(source, [{
      path: position(text, tooDeep),
      message: `invalid JSONC: nesting deeper than ${MAX_JSONC_DEPTH} levels`,
      hint: "a policy nests a few levels: check the brackets there",
    }]);
  }
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const issues: PolicyIssue[] = errors.map((error) => ({
    path: position(text, error.offset),
    message: `invalid JSONC: ${printParseErrorCode(error.error)}`,
    hint: "fix the JSON syntax there",
  }));
  if (!issues.length && tree) issues.push(...duplicateKeys(text, tree));
  if (issues.length || !tree) throw new PolicyError(source, issues);
  return toValue(tree);
}

/** Every key that appears twice in one object: a later, looser rule must not silently replace a stricter one. */
function duplicateKeys(text: string, root: Node): PolicyIssue[] {
  const issues: PolicyIssue[] = [];
  const stack: Array<{ node: Node; path: string }> = [{ node: root, path: "" }];
  while (stack.length) {
    const { node, path } = stack.pop()!;
    const seen = new Set<string>();
    for (const [i, item] of (node.children ?? []).entries()) {
      if (node.type === "array") stack.push({ node: item, path: path ? `${path}.${i}` : String(i) });
      if (node.type !== "object" || !item.children || item.children.length < 2) continue;
      const key = String(item.children[0].value);
      const at = path ? `${path}.${key}` : key;
      if (seen.has(key)) {
        issues.push({
          path: at,
          message: `duplicate key "${key}" at ${position(text, item.offset)}`,
          hint: "write each key once; merge the two entries",
        });
      }
      seen.add(key);
      stack.push({ node: item.children[1], path: at });
    }
  }
  return issues;
}

/** The value of a parse tree, with every key an own property (`__proto__` included, for compilePolicy to reject). */
function toValue(root: Node): unknown {
  const build = (node: Node): unknown => {
    if (node.type === "array") return (node.children ?? []).map(build);
    if (node.type !== "object") return node.value;
    const object: Record<string, unknown> = {};
    for (const property of node.children ?? []) {
      const [key, value] = property.children ?? [];
      if (!key || !value) continue;
      Object.defineProperty(object, String(key.value), {
        value: build(value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return object;
  };
  return build(root);
}

// jsonc-parser's SyntaxKind is a const enum, which isolated modules cannot read: its values, from its main.d.ts.
const OPEN_BRACE = 1, CLOSE_BRACE = 2, OPEN_BRACKET = 3, CLOSE_BRACKET = 4, EOF = 17;

/** The offset of the first `{` or `[` that opens a level past `limit` (strings and comments skipped), scanning without recursion. */
function deeperThan(text: string, limit: number): number | undefined {
  const scanner = createScanner(text, false);
  let depth = 0;
  for (let token: number = scanner.scan(); token !== EOF; token = scanner.scan()) {
    if (token === OPEN_BRACE || token === OPEN_BRACKET) {
      if (++depth > limit) return scanner.getTokenOffset();
    } else if (token === CLOSE_BRACE || token === CLOSE_BRACKET) depth--;
  }
  return undefined;
}

function position(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}
