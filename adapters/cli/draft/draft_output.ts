/**
 * How `pab generate` reads a tool's output: from what the tool says about
 * itself (MCP annotations, its description, its output schema, its
 * parameters), never from a list of known tool names.
 *
 * @module
 */
import type { ToolDefinition, ValueSchema } from "./tool_definitions.ts";

/**
 * What the draft says about a tool's output: `untrusted` as a whole;
 * `fields` (the platform's own records, with only `trustedFields` vouching:
 * every other field, and output that is not structured, stays untrusted); or
 * `trusted` as a whole. `why` is the comment the draft prints.
 */
export type OutputReading =
  | { readonly kind: "untrusted"; readonly why: string }
  | { readonly kind: "fields"; readonly trustedFields: readonly string[]; readonly why: string }
  | { readonly kind: "trusted"; readonly why: string };

/** Words in a description that say the tool reaches the open world (a page anyone may have written). */
const OPEN_WORLD_WORDS =
  /\b(web ?pages?|websites?|internet|urls?|the web|online|https?|browse[sd]?|crawl|scrape|search engine|rss|feeds?)\b/i;
/** A parameter that names a place on the web. */
const URL_PARAMETER = /(^|_)(url|uri|link|href|endpoint|webhook|domain|host)s?$/;
/**
 * Words in a description that say the records hold text that others write:
 * messages, mail, posts, reviews, files and documents, calendar entries,
 * tickets, transactions (whose free-text parts the other party writes).
 */
const AUTHORED_WORDS =
  /\b(e-?mails?|mail|inbox|mailbox|messages?|chats?|threads?|posts?|comments?|replies|reviews?|ratings?|feedback|tickets?|issues?|files?|documents?|contents?|notes?|articles?|pages?|events?|appointments?|meetings?|invitations?|transactions?|payments?|orders?|tasks?|records?|entries|observations?|nodes?|graph|results?|logs?|output|stdout|stderr|text|body|bodies|summar(y|ies)|transcripts?|conversations?|submissions?|responses?|answers?|questions?|forms?|surveys?|commits?|pull requests?|wiki|readme|html|markdown|attachments?|customers?|leads?|applicants?|candidates?|resumes?|profiles?|bios?|descriptions?|titles?|captions?)\b/i;
/** Words that name the user's own lists, which the user writes: the address book, settings. */
const OWN_LIST_WORDS = /\b(contacts?|contact list|address book|settings|preferences)\b/i;
/**
 * Field names the platform itself writes, by common API conventions: ids,
 * times and dates, quantities and money of the user's own records, state
 * flags, and the membership the platform lists (participants, attendees,
 * members). Authors and addressees (senders, recipients, owners), names,
 * titles, bodies and descriptions are not among them: outsiders choose those.
 */
const PLATFORM_FIELDS = [
  "id",
  "id_",
  "ids",
  "uuid",
  "date",
  "time",
  "timestamp",
  "datetime",
  "created",
  "created_at",
  "updated",
  "updated_at",
  "modified",
  "last_modified",
  "start_time",
  "end_time",
  "due",
  "amount",
  "balance",
  "currency",
  "size",
  "count",
  "status",
  "state",
  "read",
  "unread",
  "recurring",
  "all_day",
  "type",
  "kind",
  "permission",
  "participants",
  "attendees",
  "members",
] as const;
const PLATFORM_FIELD = /^(id_?|ids|uuid|.+_ids?|.+_at|.+_time|.+_date|.+_count|.+_size|is_.+|has_.+)$/;

/**
 * Read a tool's output trust from what the tool says about itself.
 *
 * - `openWorldHint: true`, a URL-like parameter, or a description that speaks
 *   of the web: untrusted as a whole (anyone may have written it).
 * - A description or output schema that speaks of records others write
 *   (messages, mail, files, events, transactions, reviews, ...): the
 *   platform's own fields vouch (ids, times, amounts, state flags; from the
 *   output schema when there is one), every other field and any free text is
 *   untrusted (`trusted_fields`).
 * - Otherwise, a closed-world read whose description names no such records
 *   (a balance, a listing, the current date), or names the user's own lists
 *   (contacts, an address book, settings): trusted as a whole.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readOutputTrust } from "./draft_output.ts";
 * assert.equal(readOutputTrust({ name: "fetch", parameters: { url: "string" } }).kind, "untrusted");
 * assert.equal(readOutputTrust({ name: "inbox", parameters: {}, description: "Read the e-mails" }).kind, "fields");
 * assert.equal(readOutputTrust({ name: "balance", parameters: {}, description: "Get the balance" }).kind, "trusted");
 * ```
 */
export function readOutputTrust(tool: ToolDefinition): OutputReading {
  const description = tool.description ?? "";
  const urlParameter = Object.keys(tool.parameters).find((name) =>
    URL_PARAMETER.test(snakeCase(name)) || tool.schemas?.[name]?.format === "uri"
  );
  if (tool.openWorld === true) {
    return {
      kind: "untrusted",
      why: `${openWorldHint(tool)}: it reaches beyond the user's own data, anyone may write it`,
    };
  }
  if (urlParameter !== undefined) {
    return { kind: "untrusted", why: `it takes a URL (${urlParameter}): what a page says, anyone may have written` };
  }
  if (OPEN_WORLD_WORDS.test(description)) {
    return {
      kind: "untrusted",
      why: `its description speaks of the web ("${OPEN_WORLD_WORDS.exec(description)![0]}")`,
    };
  }
  const authored = OWN_LIST_WORDS.test(description) ? null : AUTHORED_WORDS.exec(description);
  if (tool.outputFields) {
    const trustedFields = Object.entries(tool.outputFields).filter(([name, schema]) => isPlatformField(name, schema))
      .map(([name]) => name);
    const others = Object.keys(tool.outputFields).filter((name) => !trustedFields.includes(name));
    if (!others.length && !authored) {
      return { kind: "trusted", why: "its output schema has only fields the platform writes (ids, times, numbers)" };
    }
    if (!trustedFields.length) {
      return { kind: "untrusted", why: "its output schema has no field the platform itself writes" };
    }
    return {
      kind: "fields",
      trustedFields,
      why: `its output schema: ${others.join(", ")} may be written by others`,
    };
  }
  if (authored || !description) {
    return {
      kind: "fields",
      trustedFields: PLATFORM_FIELDS,
      why: authored
        ? `its description speaks of records others write ("${authored[0]}"); no output schema says which fields`
        : "it says nothing about what it returns; no output schema says which fields",
    };
  }
  return {
    kind: "trusted",
    why: "a closed-world read whose description names nothing others write (a guess from its words: if others " +
      "write any of what it returns, list the platform's fields in trusted_fields)",
  };
}

/**
 * What a tool that changes state returns: the platform's record of the change
 * (the created object, its id). Only the platform's own fields vouch, so the id
 * of a file the user just created can select it next; free text does not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readChangeOutput } from "./draft_output.ts";
 * assert.equal(readChangeOutput({ name: "create_file", parameters: {} }).kind, "fields");
 * ```
 */
export function readChangeOutput(tool: ToolDefinition): OutputReading {
  if (tool.openWorld === true) {
    return { kind: "untrusted", why: `${openWorldHint(tool)}: what it returns comes from beyond the user's own data` };
  }
  const trustedFields = tool.outputFields
    ? Object.entries(tool.outputFields).filter(([name, schema]) => isPlatformField(name, schema)).map(([name]) => name)
    : PLATFORM_FIELDS;
  if (!trustedFields.length) return { kind: "untrusted", why: "its output schema has no field the platform writes" };
  return { kind: "fields", trustedFields, why: "the record of the change it made" };
}

/** Whether a field of an output schema is one the platform writes: by its name, or a bounded type. */
function isPlatformField(name: string, schema: ValueSchema): boolean {
  const word = snakeCase(name);
  if ((PLATFORM_FIELDS as readonly string[]).includes(word) || PLATFORM_FIELD.test(word)) return true;
  if (schema.type === "boolean" || schema.enum) return true;
  if (schema.type === "number" || schema.type === "integer") return true;
  return schema.type === "string" && ["date-time", "date", "time", "uuid"].includes(schema.format ?? "");
}

function openWorldHint(tool: ToolDefinition): string {
  return tool.assumed?.includes("openWorld")
    ? "openWorldHint (MCP's default: the server does not say)"
    : "openWorldHint";
}

/** `fooBar`, `foo-bar`, `foo.bar` as `foo_bar`. */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/[-.\s]+/g, "_").toLowerCase();
}
