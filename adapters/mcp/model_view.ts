/**
 * What the model sees of an MCP tool result, as structured as it came: the
 * guard records this, under the tool's label, instead of one joined text.
 *
 * @module
 */
import { isRecord, type Label, makeLabel } from "../../core/mod.ts";
import { parseJson } from "../json/mod.ts";

/** What a result shows the model, and whether the guard must read it as stricter than the tool's label. */
export interface ModelView {
  /** The value to record: the structured output, one text, or the content blocks as they came. */
  readonly value: unknown;
  /** Set when the result showed the model more than its structured output, so the field rules cannot cover it. */
  readonly untrusted: boolean;
}

/** Keys of content blocks that hold encoded bytes (an image, audio, a blob): pab cannot read them. */
const ENCODED = new Set(["data", "blob"]);

/**
 * What the model sees of a `tools/call` result:
 *
 * - with `structuredContent` (an object), that object, so the policy's
 *   `untrusted_fields` apply to its fields as the tool's output schema names
 *   them; text blocks that repeat it (its JSON, or one of its string values)
 *   add nothing. Any other block is shown to the model beside it: then the
 *   whole result is recorded (`{structuredContent, content}`) and read as
 *   untrusted, since the field rules cannot say who wrote the rest;
 * - one text block: its text (JSON text is read as structure by the guard);
 * - otherwise every block as it came (text, embedded resources and their
 *   text, resource links), with encoded bytes replaced by their size.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { modelView } from "./model_view.ts";
 * assert.deepEqual(modelView({ content: [{ type: "text", text: "a" }] }), { value: "a", untrusted: false });
 * const structured = { content: [{ type: "text", text: '{"to":"x"}' }], structuredContent: { to: "x" } };
 * assert.deepEqual(modelView(structured), { value: { to: "x" }, untrusted: false });
 * const both = modelView({ content: [{ type: "text", text: "also: y" }], structuredContent: { to: "x" } });
 * assert.deepEqual(both, { value: { structuredContent: { to: "x" }, content: [{ type: "text", text: "also: y" }] }, untrusted: true });
 * ```
 */
export function modelView(result: unknown): ModelView {
  const record = isRecord(result) ? result : {};
  const blocks = (Array.isArray(record.content) ? record.content : []).map(shownBlock);
  const structured = record.structuredContent;
  if (isRecord(structured)) {
    const extra = blocks.filter((block) => !repeats(block, structured));
    if (!extra.length) return { value: structured, untrusted: false };
    return { value: { structuredContent: structured, content: extra }, untrusted: true };
  }
  if (structured !== undefined) {
    // Structured output that is not an object breaks the MCP contract: keep it all, trust none of it.
    return { value: { structuredContent: structured, content: blocks }, untrusted: true };
  }
  if (blocks.length === 1 && isRecord(blocks[0]) && typeof blocks[0].text === "string" && isText(blocks[0])) {
    return { value: blocks[0].text, untrusted: false };
  }
  return { value: blocks, untrusted: false };
}

/**
 * The label that makes a view untrusted: every reader of the policy's top, suspicious.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { untrustedLabel } from "./model_view.ts";
 * assert.deepEqual(untrustedLabel(["public"]), { readers: ["public"], trust: "suspicious" });
 * ```
 */
export function untrustedLabel(readers: readonly string[]): Label {
  return makeLabel(readers, "suspicious");
}

/** A block as the model sees it: encoded bytes become their size (pab cannot read them). */
function shownBlock(block: unknown): unknown {
  if (!isRecord(block)) return block;
  const shown: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(block)) {
    shown[key] = ENCODED.has(key) && typeof value === "string" ? `(${value.length} encoded characters)` : value;
    if (key === "resource" && isRecord(value)) shown[key] = shownBlock(value);
  }
  return shown;
}

function isText(block: Record<string, unknown>): boolean {
  return (block.type === "text" || block.type === undefined) &&
    Object.keys(block).every((key) => key === "type" || key === "text");
}

/** Whether a text block only repeats the structured output: its JSON, or one of its string values. */
function repeats(block: unknown, structured: Record<string, unknown>): boolean {
  if (!isRecord(block) || !isText(block) || typeof block.text !== "string") return false;
  const text = block.text.trim();
  if (!text) return true;
  if (text.startsWith("{")) {
    try {
      return canonical(parseJson(text)) === canonical(structured);
    } catch {
      return false;
    }
  }
  return stringValues(structured).has(block.text);
}

function stringValues(value: unknown, found = new Set<string>(), depth = 0): Set<string> {
  if (depth > 64) return found;
  if (typeof value === "string") found.add(value);
  else if (Array.isArray(value)) value.forEach((item) => stringValues(item, found, depth + 1));
  else if (isRecord(value)) Object.values(value).forEach((item) => stringValues(item, found, depth + 1));
  return found;
}

/** JSON with keys sorted, so two encodings of one value compare equal. */
export function canonical(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, item) => isRecord(item) ? Object.fromEntries(Object.keys(item).sort().map((key) => [key, item[key]])) : item,
  );
}
