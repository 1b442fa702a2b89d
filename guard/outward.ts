/**
 * The library default for tools that send data outward: a link or an e-mail
 * address inside any of their arguments must come from a trusted source,
 * however free the text around it is, unless the policy opts out.
 *
 * Why by default: a tool that sends data somewhere (a message, an e-mail, a
 * post, a share, a payment) hands its free text to someone. A link or address
 * in that text is a destination too (a reader follows it, a reply goes to it),
 * so it deserves the same question as the recipient argument: which source
 * supplied it? A recipient-like argument is checked as a whole by its own
 * rule; the default covers everything the policy left as free text.
 *
 * @module
 */
import type { ArgRule, Policy, ToolPolicy } from "./policy/mod.ts";
import type { ToolCall } from "./tool_call.ts";

/**
 * The last word of an argument name that says data goes somewhere: a person,
 * an address, a place it is posted or fetched from. `user_email`, `to` and
 * `recipients` are destinations; `email_id` and `sender` are not.
 */
export const DESTINATION_WORDS: ReadonlySet<string> = new Set([
  "to",
  "cc",
  "bcc",
  "recipient",
  "recipients",
  "participant",
  "participants",
  "email",
  "emails",
  "url",
  "urls",
  "uri",
  "link",
  "webhook",
  "endpoint",
  "channel",
  "destination",
]);

/**
 * Whether an argument name names a destination: its last word (split at `_`,
 * `-` or a lower-to-upper case change) is one of a fixed list (`to`, `cc`,
 * `bcc`, `recipient(s)`, `participant(s)`, `email(s)`, `url(s)`, `uri`,
 * `link`, `webhook`, `endpoint`, `channel`, `destination`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isDestinationName } from "./outward.ts";
 * assert.equal(isDestinationName("user_email"), true);
 * assert.equal(isDestinationName("recipientEmail"), true);
 * assert.equal(isDestinationName("email_id"), false);
 * assert.equal(isDestinationName("sender"), false);
 * ```
 */
export function isDestinationName(name: string): boolean {
  // Most argument names are one lowercase word (`to`, `body`): that word is the last.
  if (isLowercaseWord(name)) return DESTINATION_WORDS.has(name);
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().split(/[_\-\s]+/).filter(Boolean);
  return words.length > 0 && DESTINATION_WORDS.has(words[words.length - 1]);
}

function isLowercaseWord(name: string): boolean {
  if (!name.length) return false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code < 97 || code > 122) return false;
  }
  return true;
}

/**
 * Whether a call sends data outward: the policy's `outward:` for the tool when
 * it says so; otherwise yes when the tool's `recipients` contract takes a
 * recipient from an argument (`{arg: to}`), or when the call or the tool's
 * rules have an argument whose name names a destination
 * ({@linkcode isDestinationName}). A contract with only fixed groups
 * (`recipients: [staff]`) is not outward by itself: the policy chose that
 * audience, the call does not. A hostile model that adds a
 * destination-named argument only makes the call stricter.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isOutward } from "./outward.ts";
 * import { makeToolCall } from "./tool_call.ts";
 * assert.equal(isOutward(undefined, makeToolCall("send_direct_message", { recipient: "Bob", body: "hi" })), true);
 * assert.equal(isOutward(undefined, makeToolCall("create_file", { filename: "a.txt", content: "hi" })), false);
 * ```
 */
export function isOutward(spec: ToolPolicy | undefined, call: ToolCall): boolean {
  if (spec?.outward !== undefined) return spec.outward;
  if (spec?.recipients.some((recipient) => "arg" in recipient)) return true;
  for (const arg of Object.keys(call.args)) if (isDestinationName(arg)) return true;
  for (const arg of Object.keys(spec?.args ?? {})) if (isDestinationName(arg)) return true;
  return false;
}

/** An argument rule as the checks apply it: the policy's, or the library default's. */
export interface AppliedRule {
  /** The rule. */
  readonly rule: ArgRule;
  /** Whether the library default for outward tools added `embedded` to it. */
  readonly byDefault: boolean;
}

/**
 * The argument rules a call is checked against: the policy's own, plus, for a
 * call that sends data outward ({@linkcode isOutward}), `embedded:
 * <default.outward_embedded>` on every argument of the call whose rule does
 * not already vouch for the whole value (`require`) or say `embedded` itself
 * (`embedded: off` opts one argument out), that the tool's `recipients`
 * contract does not name, and whose name does not name a destination: the
 * default is for free text; who receives is for the readers check and the
 * argument's own rule. A violation of the default costs
 * `confirm` (or the argument rule's own `on_violation`); delegation-aware
 * escalation may make it a block.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { appliedRules } from "./outward.ts";
 * import { makeToolCall } from "./tool_call.ts";
 * import { compilePolicy } from "./policy/mod.ts";
 * const policy = compilePolicy({
 *   version: 1,
 *   tools: { send_email: { args: { to: { require: "trusted" }, footer: { embedded: "off" } } } },
 * });
 * const call = makeToolCall("send_email", { to: "a@corp.example", body: "see x.example", footer: "y.example" });
 * const rules = appliedRules(policy, policy.tools.send_email, call);
 * assert.deepEqual([...rules.keys()].sort(), ["body", "footer", "to"]);
 * assert.equal(rules.get("body")?.rule.embedded, "trusted");
 * assert.equal(rules.get("body")?.byDefault, true);
 * assert.equal(rules.get("footer")?.rule.embedded, "off");
 * ```
 */
export function appliedRules(
  policy: Policy,
  spec: ToolPolicy | undefined,
  call: ToolCall,
): Map<string, AppliedRule> {
  // A Map, not an object: an argument named `__proto__` is an argument like any other.
  const applied = new Map<string, AppliedRule>();
  const own = spec?.args ?? {};
  for (const arg of Object.keys(own)) applied.set(arg, { rule: own[arg], byDefault: false });
  const level = policy.default.outwardEmbedded;
  if (level === "off" || !isOutward(spec, call)) return applied;
  for (const arg of Object.keys(call.args)) {
    // Not free text: who receives is for the readers check and the argument's own rule.
    if (isDestinationName(arg) || spec?.recipients.some((recipient) => "arg" in recipient && recipient.arg === arg)) {
      continue;
    }
    const rule = applied.get(arg)?.rule;
    if (rule?.require || rule?.embedded) continue;
    applied.set(arg, { rule: withEmbedded(rule, level), byDefault: true });
  }
  return applied;
}

/** The library default's rules, made once per policy rule and level (rules are frozen parts of a compiled policy). */
const DEFAULT_RULES = new WeakMap<ArgRule, Partial<Record<"trusted" | "attested", ArgRule>>>();
const FREE_TEXT: ArgRule = Object.freeze({ allow: Object.freeze([]), onViolation: "confirm" as const });

function withEmbedded(own: ArgRule | undefined, level: "trusted" | "attested"): ArgRule {
  const base = own ?? FREE_TEXT;
  if (!Object.isFrozen(base)) return Object.freeze({ ...base, embedded: level });
  let rules = DEFAULT_RULES.get(base);
  if (!rules) DEFAULT_RULES.set(base, rules = {});
  return rules[level] ??= Object.freeze({ ...base, embedded: level });
}
