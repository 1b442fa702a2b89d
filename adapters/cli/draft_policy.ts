/**
 * Draft a policy from tool definitions, with conservative defaults that are
 * explained in comments next to each line.
 *
 * @module
 */
import { escapeControl } from "./escape_text.ts";
import type { ToolDefinition } from "./tool_definitions.ts";

const WRITE_WORD =
  /(^|_)(send|post|create|update|delete|remove|write|edit|move|rename|add|append|share|invite|reserve|schedule|reschedule|cancel|pay|transfer|set|insert|upload|publish|forward|reply|submit|book|kick|ban|archive|close|merge|push|run|execute|exec|install|modify|change|patch|put|store|save)(_|$)/;
const READ_WORD =
  /^(get|list|read|search|find|query|lookup|check|describe|view|show|count|fetch|browse|open|retrieve|download|print|echo|directory)(_|$)/;
const OWN_DATA =
  /(^|_)(user_info|user_information|profile|balance|iban|contacts|current_day|current_date|current_time|settings|preferences|allowed_directories|me|whoami)(_|$)/;
const OUTWARD =
  /(^|_)(send|post|email|mail|message|share|invite|publish|upload|forward|reply|transfer|transaction|pay|money|submit|notify|webhook|tweet|comment|fetch|http|request|browse|navigate|webpage)(_|$)/;
const URL_LIKE = /(^|_)(url|uri|link|href|endpoint|webhook|domain|host)s?$/;
const ARGUMENT_KINDS: readonly { kind: string; pattern: RegExp; why: string; onlyIfChanging: boolean }[] = [
  {
    kind: "recipient",
    pattern:
      /^(to|cc|bcc|recipients?|emails?|email_address(es)?|participants?|attendees?|invitees?|phone(_number)?|channel|user|users|username|members?|contacts?)$|_(email|recipients?)$/,
    why: "recipient-like: who receives the data must come from the user or a trusted tool",
    onlyIfChanging: true,
  },
  {
    kind: "url",
    pattern: URL_LIKE,
    why: "URL-like: a link can carry data out, so it must come from the user or a trusted tool",
    onlyIfChanging: false,
  },
  {
    kind: "account",
    pattern: /(^|_)(iban|account|account_number|account_id|bic|swift|wallet|card|card_number|routing_number)$/,
    why: "account-like: where money or access goes must come from the user or a trusted tool",
    onlyIfChanging: false,
  },
  {
    kind: "amount",
    pattern: /(^|_)(amount|price|sum|total|cost|fee|payment)$/,
    why: "amount-like: how much must come from the user or a trusted tool",
    onlyIfChanging: false,
  },
  {
    kind: "credential",
    pattern: /(^|_)(password|passphrase|secret|token|api_key|credentials?)$/,
    why: "credential-like: a new secret must come from the user",
    onlyIfChanging: true,
  },
  {
    kind: "target",
    pattern: /(^|_)(path|file_path|destination|target)$/,
    why: "target-like: where a change lands must come from the user or a trusted tool",
    onlyIfChanging: true,
  },
];
const FREE_TEXT = /(^|_)(body|content|message|text|subject|description|note|notes|comment|title|caption|summary)$/;
const RESERVED = new Set(["__proto__", "constructor", "prototype"]);

/**
 * How `pab generate` reads one tool: whether it only reads, whether what it
 * reads is the user's own data, and whether it sends data out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyTool } from "./draft_policy.ts";
 * assert.deepEqual(classifyTool({ name: "get_balance", parameters: {} }), { readOnly: true, ownData: true, outward: false });
 * assert.deepEqual(classifyTool({ name: "send_money", parameters: { recipient: "string" } }), { readOnly: false, ownData: false, outward: true });
 * ```
 */
export function classifyTool(tool: ToolDefinition): { readOnly: boolean; ownData: boolean; outward: boolean } {
  const name = snake(tool.name);
  const readOnly = tool.readOnly ?? (!WRITE_WORD.test(name) && READ_WORD.test(name));
  const ownData = readOnly && tool.openWorld !== true && OWN_DATA.test(name);
  const outward = OUTWARD.test(name) || tool.openWorld === true ||
    Object.keys(tool.parameters).some((arg) => URL_LIKE.test(snake(arg)));
  return { readOnly, ownData, outward };
}

/**
 * Draft a YAML policy for `tools`, every default explained in a comment:
 * outputs untrusted unless a tool only reads the user's own data;
 * recipient-, URL-, account-, amount-, credential- and target-like arguments
 * `require: trusted`; free-text arguments of tools that send data out
 * `embedded: trusted` (links and addresses inside must come from trusted
 * input); `on_tainted: confirm` for tools that change state, `allow` for
 * reads. Names are quoted when they are not plain words; duplicate and
 * reserved names are left out with a comment.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { draftPolicy } from "./draft_policy.ts";
 * const yaml = draftPolicy([{ name: "send_email", parameters: { to: "string", body: "string" } }], "tools.json");
 * assert.match(yaml, /\n {2}send_email:\n {4}output: untrusted #/);
 * assert.match(yaml, /\n {6}to: \{ require: trusted \} # recipient-like/);
 * assert.match(yaml, /\n {6}body: \{ embedded: trusted \} #/);
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
  const seen = new Set<string>();
  for (const tool of tools) {
    if (RESERVED.has(tool.name) || seen.has(tool.name)) {
      lines.push(
        `  # left out ${escapeControl(JSON.stringify(tool.name))}: ${
          seen.has(tool.name) ? "a duplicate" : "a reserved word"
        }`,
      );
      continue;
    }
    seen.add(tool.name);
    lines.push(...draftTool(tool));
  }
  return `${lines.join("\n")}\n`;
}

function draftTool(tool: ToolDefinition): string[] {
  const { readOnly, ownData, outward } = classifyTool(tool);
  const lines = [`  ${key(tool.name)}:`];
  lines.push(
    ownData
      ? "    output: trusted # only reads the user's own data"
      : readOnly
      ? "    output: untrusted # reads data others may have written"
      : "    output: untrusted # what a tool that changes state returns is not vouched for",
  );
  lines.push(
    readOnly
      ? "    on_tainted: allow # only reads: nothing changes"
      : "    on_tainted: confirm # changes state: the user confirms once untrusted input was read",
  );
  const args: string[] = [];
  for (const name of Object.keys(tool.parameters)) {
    if (RESERVED.has(name)) {
      lines.push(`    # left out argument ${escapeControl(JSON.stringify(name))}: a reserved word`);
      continue;
    }
    const word = snake(name);
    const kind = ARGUMENT_KINDS.find((entry) => entry.pattern.test(word) && (!entry.onlyIfChanging || !readOnly));
    if (kind) args.push(`      ${key(name)}: { require: trusted } # ${kind.why}`);
    else if (outward && !readOnly && FREE_TEXT.test(word)) {
      args.push(
        `      ${
          key(name)
        }: { embedded: trusted } # free text sent out: links and addresses inside must come from trusted input`,
      );
    }
  }
  if (args.length) lines.push("    args:", ...args);
  return lines;
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

function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/[-.\s]+/g, "_").toLowerCase();
}
