/**
 * Where a policy issue's dotted path sits in the policy's text: the line of
 * the deepest key (or sequence item) of the path that the text has.
 *
 * @module
 */
import { findNodeAtLocation, parseTree } from "npm:jsonc-parser@3.3.1";
import type { PolicyFormat } from "../../../guard/policy/text/mod.ts";

/**
 * The 1-based line of `path` (`tools.send_email.args.to.alow`) in a policy's
 * text, or `undefined` when not even its first key is found. JSONC is read
 * by its parser; YAML by indentation (block and flow mappings, block
 * sequences), which is enough for the keys an issue names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineOfPath } from "./policy_line.ts";
 * const yaml = "version: 1\ntools:\n  send_email:\n    args:\n      to: {alow: [x]}\n";
 * assert.equal(lineOfPath(yaml, "yaml", "tools.send_email.args.to.alow"), 5);
 * assert.equal(lineOfPath('{\n  "version": 1,\n  "tools": {\n    "t": {"ouput": 1}\n  }\n}', "jsonc", "tools.t.ouput"), 4);
 * ```
 */
export function lineOfPath(text: string, format: PolicyFormat, path: string): number | undefined {
  const parts = path === "" ? [] : path.split(".");
  if (!parts.length) return undefined;
  return format === "jsonc" ? jsoncLine(text, parts) : yamlLine(text, parts);
}

function jsoncLine(text: string, parts: readonly string[]): number | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true });
  if (!root) return undefined;
  for (let length = parts.length; length > 0; length--) {
    const segments = parts.slice(0, length).map((part) => /^\d+$/.test(part) ? Number(part) : part);
    const node = findNodeAtLocation(root, segments);
    if (node) {
      // A property's key, not its value, is where the issue is.
      const at = node.parent?.type === "property" ? node.parent.offset : node.offset;
      return lineAt(text, at);
    }
  }
  return undefined;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === "\n") line++;
  return line;
}

function yamlLine(text: string, parts: readonly string[]): number | undefined {
  const lines = text.split(/\r?\n/);
  let from = 0;
  let to = lines.length;
  let parentIndent = -1;
  let found: number | undefined;
  for (const part of parts) {
    if (found !== undefined && inFlow(lines[found], part)) return found + 1;
    const hit = /^\d+$/.test(part)
      ? sequenceItem(lines, from, to, parentIndent, Number(part))
      : mappingKey(lines, from, to, parentIndent, part);
    if (hit === undefined) break;
    found = hit.line;
    parentIndent = hit.indent;
    from = hit.line + 1;
    to = blockEnd(lines, from, hit.indent);
  }
  return found === undefined ? undefined : found + 1;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function isContent(line: string): boolean {
  const trimmed = line.trim();
  return trimmed !== "" && !trimmed.startsWith("#");
}

/** The first line below `from` whose indentation is at most `indent` (the end of a block). */
function blockEnd(lines: readonly string[], from: number, indent: number): number {
  for (let i = from; i < lines.length; i++) if (isContent(lines[i]) && indentOf(lines[i]) <= indent) return i;
  return lines.length;
}

function keyPattern(key: string): RegExp {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^(?:- +)*(?:"${escaped}"|'${escaped}'|${escaped})\\s*:(?:\\s|$)`);
}

function mappingKey(lines: readonly string[], from: number, to: number, parent: number, key: string) {
  const pattern = keyPattern(key);
  for (let i = from; i < to; i++) {
    if (!isContent(lines[i]) || indentOf(lines[i]) <= parent) continue;
    if (pattern.test(lines[i].trimStart())) return { line: i, indent: indentOf(lines[i]) };
  }
  return undefined;
}

function sequenceItem(lines: readonly string[], from: number, to: number, parent: number, index: number) {
  let seen = -1;
  let itemIndent: number | undefined;
  for (let i = from; i < to; i++) {
    if (!isContent(lines[i]) || indentOf(lines[i]) < parent) continue;
    const trimmed = lines[i].trimStart();
    if (!trimmed.startsWith("- ") && trimmed !== "-") continue;
    itemIndent ??= indentOf(lines[i]);
    if (indentOf(lines[i]) !== itemIndent) continue;
    if (++seen === index) return { line: i, indent: itemIndent };
  }
  return undefined;
}

/** Whether a flow collection on this line holds the key (`to: {require: trusted}` holds `require`). */
function inFlow(line: string, key: string): boolean {
  const flow = line.indexOf("{") >= 0 ? line.slice(line.indexOf("{")) : line.indexOf("[") >= 0 ? line : "";
  if (!flow) return false;
  if (/^\d+$/.test(key)) return flow.includes("[");
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`[{,]\\s*(?:"${escaped}"|'${escaped}'|${escaped})\\s*:`).test(flow);
}
