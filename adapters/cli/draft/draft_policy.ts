/**
 * Draft a policy from tool definitions, with conservative defaults that are
 * explained in comments next to each line: what a tool's output is trusted
 * for (from its annotations, description and output schema), how each
 * argument of a tool that changes state is checked, and when strangers' text
 * in the context asks the user.
 *
 * @module
 */
import { escapeControl } from "../io/escape_text.ts";
import { readArgument } from "./draft_arguments.ts";
import { readChangeOutput, readOutputTrust, snakeCase } from "./draft_output.ts";
import type { ToolDefinition } from "./tool_definitions.ts";

const WRITE_WORD =
  /(^|_)(send|post|create|update|delete|remove|write|edit|move|rename|add|append|share|invite|reserve|schedule|reschedule|cancel|pay|transfer|set|insert|upload|publish|forward|reply|submit|book|kick|ban|archive|close|merge|push|run|execute|exec|install|modify|change|patch|put|store|save|toggle|make|trigger)(_|$)/;
const READ_WORD =
  /^(get|list|read|search|find|query|lookup|check|describe|view|show|count|fetch|browse|open|retrieve|download|print|echo|directory)(_|$)/;
/** Verbs that destroy or revoke, by common API conventions (HTTP DELETE, CRUD). */
const DESTROY_WORD =
  /(^|_)(delete|remove|destroy|erase|purge|drop|revoke|cancel|kick|ban|overwrite|wipe|truncate)(_|$)/;
const DESTROY_TEXT =
  /\b(delete[sd]?|remove[sd]?|destroy(s|ed)?|erase[sd]?|purge[sd]?|revoke[sd]?|cancel(s|led)?|overwrite[sd]?)\b/i;
/** Verbs that commit the user to one of many options (a booking, a purchase), by common API conventions. */
const COMMIT_WORD = /(^|_)(reserve|book|purchase|buy|order|rent|hire|subscribe|enroll|checkout)(_|$)/;
const OUTWARD =
  /(^|_)(send|post|email|mail|message|share|invite|publish|upload|forward|reply|transfer|transaction|pay|money|submit|notify|webhook|tweet|comment|fetch|http|request|browse|navigate|webpage)(_|$)/;
const URL_LIKE = /(^|_)(url|uri|link|href|endpoint|webhook|domain|host)s?$/;
const RESERVED = new Set(["__proto__", "constructor", "prototype"]);
// Names a policy refuses because they read as another name (guard/policy/text: an invisible format character).
const INVISIBLE = /\p{Cf}/u;

/**
 * How `pab generate` reads one tool: whether it only reads (MCP's
 * `readOnlyHint`, else its name's verb), whether it destroys (MCP's
 * `destructiveHint`, else its name's verb or its description), whether it
 * commits the user to one of many options (a booking, a purchase: its
 * name's verb), and whether it sends data out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyTool } from "./draft_policy.ts";
 * assert.deepEqual(classifyTool({ name: "get_balance", parameters: {} }), { readOnly: true, destructive: false, commits: false, outward: false });
 * assert.deepEqual(classifyTool({ name: "send_money", parameters: { recipient: "string" } }), { readOnly: false, destructive: false, commits: false, outward: true });
 * assert.equal(classifyTool({ name: "book_flight", parameters: { flight: "string" } }).commits, true);
 * ```
 */
export function classifyTool(
  tool: ToolDefinition,
): { readOnly: boolean; destructive: boolean; commits: boolean; outward: boolean } {
  const name = snakeCase(tool.name);
  const readOnly = tool.readOnly ?? (!WRITE_WORD.test(name) && READ_WORD.test(name));
  const destructive = !readOnly &&
    (tool.destructive ?? (DESTROY_WORD.test(name) || DESTROY_TEXT.test(firstSentence(tool.description ?? ""))));
  const commits = !readOnly && COMMIT_WORD.test(name);
  const outward = OUTWARD.test(name) || tool.openWorld === true ||
    Object.keys(tool.parameters).some((arg) => URL_LIKE.test(snakeCase(arg)));
  return { readOnly, destructive, commits, outward };
}

/**
 * Draft a YAML policy for `tools`, every default explained in a comment:
 * output trust read from what each tool says about itself (`untrusted` for the
 * open world, `trusted_fields` for records others write into, `trusted` for a
 * closed-world read that names no such records); every argument of a tool
 * that changes state classified as a selector (`require: trusted`), content
 * (`embedded: trusted`) or an option the schema bounds (`allow`);
 * `on_tainted: pinned` for tools that change state (the user is asked only
 * when provenance does not pin the call), `confirm` for tools that destroy,
 * `allow` for reads. Names are quoted when they are not plain words;
 * reserved names, and names declared more than once with different drafts,
 * are left out with a comment (their calls follow the default).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { draftPolicy } from "./draft_policy.ts";
 * const yaml = draftPolicy([{ name: "send_email", parameters: { to: "string", body: "string" } }], "tools.json");
 * assert.match(yaml, /\n {2}send_email:\n {4}output: trusted # the platform's own records/);
 * assert.match(yaml, /\n {6}to: \{ require: trusted, on_violation: confirm \} # selector/);
 * assert.match(yaml, /\n {6}body: \{ embedded: trusted \} # content/);
 * ```
 */
export function draftPolicy(tools: readonly ToolDefinition[], source: string): string {
  const lines = [
    `# A draft policy by pab generate, from ${escapeControl(source)} (${tools.length} tools).`,
    "# Conservative defaults, each explained: review every line, then run pab lint and pab check.",
    "version: 1",
    "default:",
    "  on_tainted: confirm # tools not named below: confirm once untrusted input was read",
    "tools:",
  ];
  // Every declaration of a name, in the order names first appear: a name declared twice, differently, is left out
  // whole, so a list that declares a tool once as a harmless read and once as what it is cannot pick the laxer rules.
  const byName = new Map<string, ToolDefinition[]>();
  for (const tool of tools) byName.set(tool.name, [...(byName.get(tool.name) ?? []), tool]);
  let drafted = 0;
  for (const [name, declared] of byName) {
    const drafts = declared.map((tool) => draftTool(tool).join("\n"));
    const why = RESERVED.has(name)
      ? "a reserved word"
      : INVISIBLE.test(name)
      ? "it holds an invisible character, and a policy refuses such a name (its calls follow the default above)"
      : drafts.some((draft) => draft !== drafts[0])
      ? `declared ${declared.length} times, differently (its calls follow the default above; draft the one the server runs)`
      : undefined;
    if (why) {
      lines.push(`  # left out ${escapeControl(JSON.stringify(name))}: ${why}`);
      continue;
    }
    drafted++;
    lines.push(drafts[0]);
  }
  // With no tool drafted, an empty mapping: a bare "tools:" would be null, which the policy format refuses.
  if (!drafted) lines[lines.indexOf("tools:")] = "tools: {} # no tool to draft";
  return `${lines.join("\n")}\n`;
}

function draftTool(tool: ToolDefinition): string[] {
  const { readOnly, destructive, commits } = classifyTool(tool);
  const lines = [`  ${key(tool.name)}:`];
  const output = readOnly ? readOutputTrust(tool) : readChangeOutput(tool);
  if (output.kind === "untrusted") lines.push(`    output: untrusted # ${comment(output.why)}`);
  else if (output.kind === "trusted") lines.push(`    output: trusted # ${comment(output.why)}`);
  else {
    lines.push(
      `    output: trusted # the platform's own records: ${comment(output.why)}`,
      `    trusted_fields: [${output.trustedFields.join(", ")}] # only these vouch; other fields and free text do not`,
    );
  }
  if (readOnly) lines.push("    on_tainted: allow # only reads: nothing changes");
  else {
    lines.push(
      destructive
        ? `    on_tainted: named # ${destroyReason(tool)}: once untrusted input was read, asks unless the user's ` +
          "own words name every selector"
        : commits
        ? "    on_tainted: named # commits the user to one of many options (a booking, a purchase): once untrusted " +
          "input was read, asks unless the user's own words name the choice"
        : "    on_tainted: pinned # changes state: asks only if provenance does not pin every argument",
    );
  }
  const args: string[] = [];
  for (const name of Object.keys(tool.parameters)) {
    if (RESERVED.has(name) || INVISIBLE.test(name)) {
      lines.push(
        `    # left out argument ${escapeControl(JSON.stringify(name))}: ${
          RESERVED.has(name) ? "a reserved word" : "it holds an invisible character, which a policy refuses"
        }`,
      );
      continue;
    }
    const reading = readArgument(tool, name);
    // A read changes nothing: only where it reaches (a URL, an account) can carry data out.
    if (readOnly && !(reading.kind === "selector" && URL_LIKE.test(snakeCase(name)))) continue;
    args.push(`      ${key(name)}: ${reading.rule} # ${comment(reading.why)}`);
  }
  if (args.length) lines.push("    args:", ...args);
  return lines;
}

function destroyReason(tool: ToolDefinition): string {
  if (tool.assumed?.includes("destructive")) return "destructiveHint (MCP's default: the server does not say)";
  return tool.destructive === true ? "destructiveHint: it may destroy or overwrite" : "destroys or revokes";
}

function firstSentence(text: string): string {
  return text.split(/(?<=\.)\s/)[0];
}

function comment(text: string): string {
  return escapeControl(text).replace(/[\r\n]+/g, " ");
}

function key(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) && !/^(true|false|null|yes|no|on|off|y|n|~)$/i.test(name)
    ? name
    : quoteYaml(name);
}

/** A YAML double-quoted scalar: JSON's escapes, plus the characters YAML would read as line breaks. */
function quoteYaml(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
