/**
 * The options of `pab mcp`, declared once for the proxy and for `pab mcp
 * config` (which prints them into a host's entry), and their checks.
 *
 * @module
 */
import { resolve } from "node:path";
import { type Label, makeLabel } from "../../../core/mod.ts";
import type { Policy } from "../../../guard/mod.ts";
import { UsageError } from "../shell/cli_error.ts";
import type { CommandInput, OptionDef } from "../shell/define_command.ts";
import { policyOption } from "../policy/policy_option.ts";
import { serverUrl } from "./mcp_permissions.ts";

/** The stored session `pab mcp --store` uses unless `--session` names one. */
export const DEFAULT_MCP_SESSION = "mcp";

/** The options of the proxy, by long name. */
export const PROXY_OPTIONS: Readonly<Record<string, OptionDef>> = Object.freeze({
  policy: policyOption(),
  url: {
    type: "string",
    value: "URL",
    description: "Reach a server that is already running and speaks Streamable HTTP at URL\n" +
      "(such as http://localhost:3000/mcp) instead of starting CMD",
  },
  hide: { type: "string", value: "TOOLS", description: "Comma-separated tools to leave out of tools/list and refuse" },
  ceiling: {
    type: "string",
    value: "LABEL",
    description: "Let the server's own signals (GitHub's _meta.ifc labels, tool annotations)\n" +
      "label tools the policy does not name, never above LABEL (trusted, attested,\n" +
      "untrusted or a label of the policy); without it they stay unlabelled",
  },
  request: { type: "string", value: "TEXT", description: "The user's request: recorded as the user's words" },
  "request-file": {
    type: "string",
    value: "FILE",
    description: "The same, read from FILE once, before the server starts",
  },
  "no-ask-values": {
    type: "boolean",
    description: "Never ask the user whether values pab saw in no input are theirs",
  },
  "max-message-bytes": {
    type: "integer",
    description: "The longest message either side may send (default 10485760, the MCP\n" +
      "SDK's stdio limit); from a server at --url, each JSON answer or stream event",
  },
  store: {
    type: "string",
    value: "PATH|URL",
    description: "Keep the sources, the ledger (effects and reservations), rulings and the\n" +
      "audit log in a Deno KV file or a remote Deno KV (denokv, Deno Deploy) instead\n" +
      "of memory: a restart keeps them, and proxies on one store share the\n" +
      "session's once effects",
  },
  session: {
    type: "string",
    value: "ID",
    description:
      `The stored session (default ${DEFAULT_MCP_SESSION}); proxies naming the same session\nshare what it read, too`,
  },
});

/** The proxy's options, checked: what every form of `pab mcp` agrees on before anything starts. */
export interface ProxyInput {
  /** The policy file, as given. */
  readonly policy: string;
  /** The server to start (its command and arguments), empty with `url`. */
  readonly server: readonly string[];
  /** The server to reach over Streamable HTTP. */
  readonly url?: URL;
  /** The tools to hide. */
  readonly hide: readonly string[];
  /** The longest message, when given. */
  readonly maxMessageBytes?: number;
}

/**
 * Check the proxy's options together (each alone was checked by the parser):
 * exactly one server (`-- CMD ARGS` or `--url`), `--session` only with
 * `--store`, one request, a sane message limit. Throws `UsageError`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkProxyInput } from "./mcp_options.ts";
 * const input = (values: Record<string, string>, positionals: string[] = []) => ({
 *   positionals,
 *   string: (name: string) => values[name],
 *   flag: () => false,
 *   integer: () => undefined,
 * });
 * assert.equal(checkProxyInput(input({ policy: "p.yaml", url: "http://localhost:1/mcp" })).url?.port, "1");
 * assert.throws(() => checkProxyInput(input({ policy: "p.yaml", url: "http://localhost:1/mcp" }, ["srv"])), /name the server once/);
 * assert.throws(() => checkProxyInput(input({ policy: "p.yaml" })), /name the server to start after --/);
 * ```
 */
export function checkProxyInput(input: CommandInput): ProxyInput {
  const url = input.string("url");
  if (url !== undefined && input.positionals.length) {
    throw new UsageError(
      `name the server once: -- ${input.positionals[0]} ... starts a server, --url reaches a running one`,
      "mcp",
    );
  }
  if (url === undefined && !input.positionals.length) {
    throw new UsageError(
      "name the server to start after --: pab mcp --policy FILE -- CMD ARGS (or reach a running one: --url URL)",
      "mcp",
    );
  }
  if (input.string("session") !== undefined && input.string("store") === undefined) {
    throw new UsageError("--session names a stored session: add --store PATH|URL", "mcp");
  }
  if (input.string("request") !== undefined && input.string("request-file") !== undefined) {
    throw new UsageError("give the user's request once: --request TEXT or --request-file FILE", "mcp");
  }
  const maxMessageBytes = input.integer("max-message-bytes");
  if (maxMessageBytes !== undefined && maxMessageBytes < 1024) {
    throw new UsageError("--max-message-bytes needs at least 1024 bytes", "mcp");
  }
  const hide = input.string("hide")?.split(",").map((tool) => tool.trim()).filter(Boolean) ?? [];
  return {
    policy: input.string("policy")!,
    server: input.positionals,
    ...(url !== undefined ? { url: serverUrl(url) } : {}),
    hide,
    ...(maxMessageBytes !== undefined ? { maxMessageBytes } : {}),
  };
}

/**
 * The proxy's options as `pab mcp` takes them, from what was given, for a
 * host's entry: files and a local store made absolute, in declaration order,
 * each as one `--name=value` word.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { proxyArguments } from "./mcp_options.ts";
 * const given: Record<string, string | boolean> = { policy: "p.yaml", "no-ask-values": true, store: "kv://remote" };
 * const input = {
 *   positionals: [],
 *   string: (name: string) => typeof given[name] === "string" ? given[name] as string : undefined,
 *   flag: (name: string) => given[name] === true,
 *   integer: () => undefined,
 * };
 * assert.deepEqual(proxyArguments(input, "/work"), ["--policy=/work/p.yaml", "--no-ask-values", "--store=kv://remote"]);
 * ```
 */
export function proxyArguments(input: CommandInput, cwd: string): string[] {
  const args: string[] = [];
  for (const [name, option] of Object.entries(PROXY_OPTIONS)) {
    if (option.type === "boolean") {
      if (input.flag(name)) args.push(`--${name}`);
      continue;
    }
    const value = option.type === "integer" ? input.integer(name)?.toString() : input.string(name);
    if (value === undefined) continue;
    const file = name === "policy" || name === "request-file" ||
      (name === "store" && !/^[a-z][a-z0-9+.-]*:/i.test(value));
    // One word each: a value that starts with "-" would read as an option.
    args.push(`--${name}=${file ? resolve(cwd, value) : value}`);
  }
  return args;
}

/**
 * The label `--ceiling` names: `trusted`, `attested`, `untrusted` or one of
 * the policy's labels. Throws `UsageError` for any other name, listing them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../../guard/policy/text/mod.ts";
 * import { ceilingLabel } from "./mcp_options.ts";
 * const policy = parsePolicy("version: 1\n");
 * assert.equal(ceilingLabel(policy, "untrusted").trust, "suspicious");
 * assert.throws(() => ceilingLabel(policy, "secret"), /unknown label "secret" for --ceiling/);
 * ```
 */
export function ceilingLabel(policy: Policy, name: string): Label {
  if (name === "trusted" || name === "attested") return makeLabel(policy.top.readers, name);
  if (name === "untrusted" || name === "suspicious") return makeLabel(policy.top.readers, "suspicious");
  if (Object.hasOwn(policy.labels, name)) return policy.labels[name];
  const known = ["trusted", "attested", "untrusted", ...Object.keys(policy.labels)];
  throw new UsageError(`unknown label "${name}" for --ceiling (use one of ${known.join(", ")})`, "mcp");
}
