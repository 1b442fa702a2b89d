/**
 * How `pab generate` classifies each argument of a tool that changes state:
 * a selector (who, where, what, how much: its value must come from the user or
 * a trusted tool), content (free text: links and addresses inside must come
 * from trusted input), or an option the schema bounds (an enum, a boolean:
 * the schema is its allow list).
 *
 * @module
 */
import { snakeCase } from "./draft_output.ts";
import type { ToolDefinition, ValueSchema } from "./tool_definitions.ts";

/** One argument's class and the rule the draft writes for it. */
export interface ArgumentReading {
  /** `selector`, `content`, `option` (bounded by the schema) or `credential` (a selector only the user gives). */
  readonly kind: "selector" | "content" | "option" | "credential";
  /** The rule, as YAML flow text (`{ require: trusted, on_violation: confirm }`). */
  readonly rule: string;
  /** The comment the draft prints. */
  readonly why: string;
}

const SELECTORS: readonly { pattern: RegExp; what: string }[] = [
  {
    pattern:
      /^(to|cc|bcc|recipients?|emails?|email_address(es)?|participants?|attendees?|invitees?|assignees?|reviewers?|phone(_number)?|channels?|users?|usernames?|members?|contacts?|owners?|groups?|teams?)$|_(email|recipients?|user|users|channel)$/,
    what: "who receives or is acted on",
  },
  {
    pattern: /(^|_)(url|uri|link|href|endpoint|webhook|domain|host)s?$/,
    what: "a place on the web: a link can carry data out",
  },
  {
    pattern: /(^|_)(iban|account|account_number|bic|swift|wallet|card|card_number|routing_number)$/,
    what: "where money or access goes",
  },
  { pattern: /(^|_)(amount|price|sum|total|cost|fee|payment|quantity|value)$/, what: "how much" },
  {
    pattern:
      /(^|_)(path|paths|file_path|destination|target|source|directory|folder|cwd|working_dir|repo|repository|branch)$/,
    what: "where a change lands",
  },
  { pattern: /(^|_)(id|ids|uuid|key|ref|reference|handle|slug)$|_ids?$/, what: "which object the change acts on" },
  {
    pattern: /(^|_)(name|names|filename|file|files|attachments?|item|product|project|event)$/,
    what: "which object the change acts on",
  },
];
const CREDENTIAL = /(^|_)(password|passphrase|secret|token|api_key|credentials?|pin)$/;
/** Text that runs: a command, a script, code, a query in a query language. What it does is the effect. */
const EXECUTED =
  /^(command|commands|cmd|script|code|source_code|shell|program|exec|eval|expression|sql|statement|argv)$|_(command|commands|cmd|script|sql)$/;
/** A description that says the value names the object acted on ("the name of the hotel", "where the booking is made"). */
const NAMES_AN_OBJECT =
  /\b(name|id|identifier|iban) of (the|a|an)\b|\bwhere (the|a|an) \w+ is (made|sent|placed|booked)\b|^where\b/i;
const SELECTOR_WORDS =
  /\b(recipients?|e-?mail address|iban|account( number)?|url|link|id|identifier|name of the|path|amount|who|whom)\b/i;

/**
 * Classify one argument of a tool that changes state. The schema decides
 * first (an enum or a boolean is an option whose allow list is the schema;
 * `format: email`/`uri` is a selector), then the argument's name and its
 * description, by common API conventions. What none of them settles is
 * content: free text whose links and addresses must come from trusted input.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readArgument } from "./draft_arguments.ts";
 * const tool = { name: "t", parameters: { to: "string", body: "string", urgent: "boolean" } };
 * assert.equal(readArgument(tool, "to").kind, "selector");
 * assert.equal(readArgument(tool, "body").kind, "content");
 * assert.equal(readArgument(tool, "urgent").kind, "option");
 * ```
 */
export function readArgument(tool: ToolDefinition, name: string): ArgumentReading {
  const type = tool.parameters[name] ?? "unknown";
  const schema: ValueSchema = tool.schemas?.[name] ?? { type };
  const word = snakeCase(name);
  if (CREDENTIAL.test(word)) {
    return { kind: "credential", rule: "{ require: trusted }", why: "credential: a new secret only the user gives" };
  }
  if (EXECUTED.test(word)) {
    return selector(`text that runs (${word})`);
  }
  if (schema.enum) {
    return {
      kind: "option",
      rule: `{ allow: [${schema.enum.map((value) => JSON.stringify(value)).join(", ")}] }`,
      why: "option: the schema's enum is its allow list",
    };
  }
  if (type === "boolean") {
    return { kind: "option", rule: '{ allow: ["true", "false"] }', why: "option: a boolean, the schema bounds it" };
  }
  if (schema.format === "email" || schema.format === "uri" || schema.format === "idn-email") {
    return selector(`format ${schema.format}: who or where the change reaches`);
  }
  const named = SELECTORS.find((entry) => entry.pattern.test(word));
  if (named) return selector(`${named.what} (${word})`);
  const { minimum, maximum } = schema;
  if (type === "integer" && minimum !== undefined && maximum !== undefined && maximum - minimum <= 31) {
    const values = Array.from(
      { length: Math.max(0, Math.floor(maximum) - Math.ceil(minimum) + 1) },
      (_, i) => JSON.stringify(String(Math.ceil(minimum) + i)),
    );
    if (values.length) {
      return {
        kind: "option",
        rule: `{ allow: [${values.join(", ")}] }`,
        why: `option: an integer the schema bounds (${minimum}..${maximum}), so the schema is its allow list`,
      };
    }
  }
  if (type === "number" || type === "integer") return selector("a number the schema does not bound: how much");
  const naming = schema.description ? NAMES_AN_OBJECT.exec(schema.description) : null;
  if (naming) return selector(`its description says it names the object ("${naming[0]}")`);
  const described = schema.description ? SELECTOR_WORDS.exec(schema.description) : null;
  if (described && type !== "string") return selector(`its description says "${described[0]}"`);
  if (described && /^(recipients?|e-?mail address|iban|account( number)?|url|link|identifier)$/i.test(described[0])) {
    return selector(`its description says "${described[0]}"`);
  }
  return {
    kind: "content",
    rule: "{ embedded: trusted }",
    why: WHEN.test(word) || schema.format?.startsWith("date") || schema.format === "time"
      ? "content: a date or time says when, not who or what; checked for links and addresses inside"
      : "content: free text, checked only for the links and addresses inside",
  };
}

const WHEN = /(^|_)(date|time|day|start|end|when|due|deadline|schedule|at)$/;

function selector(why: string): ArgumentReading {
  return {
    kind: "selector",
    rule: "{ require: trusted, on_violation: confirm }",
    why:
      `selector, ${why}: must come from the user or a trusted tool; a value from a source the user pointed at is asked about`,
  };
}
