/**
 * Gate 2: label what a tool really returned and add it to the branch. The
 * label and taint apply first; nothing after that can take them back.
 *
 * @module
 */
import {
  errorText,
  knownLabel,
  type Label,
  type Ledger,
  lowerTrust,
  makeLabel,
  meetPartial,
  type PartialLabel,
  type Trust,
  trustRank,
} from "../core/mod.ts";
import type { Branch } from "./branch.ts";
import type { Source } from "./source.ts";
import { LabelError } from "./guard_errors.ts";
import { type DesignationOptions, isDesignated, isLink } from "./designation.ts";
import { argumentQuantities } from "./delegated_value.ts";
import { incomingLabel } from "./judge.ts";
import { checkLabel } from "./labelled.ts";
import { type Policy, toolPolicy } from "./policy/mod.ts";
import { type Leaf, LEAF_DEPTH_LIMIT, readLeaves } from "./read_leaves.ts";
import { compileFieldPatterns, structuredLeaves } from "../harvest/mod.ts";
import { isRecordField } from "./recorded_value.ts";

/** Options for recording one tool output. */
export interface RecordOptions {
  /**
   * The call's arguments: a catalogue label may depend on them, and they say
   * whether the user designated the source (see `isDesignated`); without
   * them the source is not designated.
   */
  readonly args?: Readonly<Record<string, unknown>>;
  /** The label of what really came back: the stricter of it and the declared label is kept. */
  readonly label?: Label;
  /** The output's structured form, when `output` is its rendering. */
  readonly data?: unknown;
}

/** What recording needs. */
export interface RecordContext {
  /** The policy. */
  readonly policy: Policy;
  /** The branch that read the output. */
  readonly branch: Branch;
  /** Where notes about the output go. */
  readonly ledger: Ledger;
}

/** `tool:NAME`, made once per tool name (at most 1,024 kept): recording a tool's outputs again makes no new name. */
function sourceNameOf(tool: string): string {
  let name = SOURCE_NAMES.get(tool);
  if (name === undefined) {
    if (SOURCE_NAMES.size >= 1024) SOURCE_NAMES.clear();
    name = `tool:${tool}`;
    SOURCE_NAMES.set(tool, name);
  }
  return name;
}

const SOURCE_NAMES = new Map<string, string>();

/** The strictest label: nobody may read, nothing vouches. */
const STRICTEST: PartialLabel = knownLabel(makeLabel([], "suspicious"));

/**
 * Record a tool's output under its label. A malformed `options.label` makes
 * the branch take the strictest label, records the output under it, and then
 * throws {@linkcode LabelError}. A tool that declares `untrusted_fields` or
 * `trusted_fields` but returns output that is not structured is untrusted as
 * a whole: a field rule never makes free text trusted. Values
 * nested beyond the indexing limit are indexed as text under the same label,
 * with a `deep-value` note in the ledger.
 */
export function recordOutput(context: RecordContext, tool: string, output: unknown, options: RecordOptions): void {
  const { policy, branch, ledger } = context;
  branch.assertOpen();
  const strictest = STRICTEST;
  let declared: PartialLabel;
  try {
    declared = incomingLabel(policy, tool, options.args ?? {});
  } catch {
    declared = strictest;
  }
  const checked = options.label === undefined ? undefined : checkLabel(options.label);
  const problem = typeof checked === "string" ? checked : undefined;
  const actual = typeof checked === "string" ? strictest.known : checked;
  const spec = toolPolicy(policy, tool);
  const fields = spec?.untrustedFields ?? [];
  const trustedFields = spec?.trustedFields ?? [];
  const fieldRules = fields.length + trustedFields.length;
  let trust: Trust = declared.unknown.length || problem
    ? "suspicious"
    : actual
    ? lowerTrust(declared.known.trust, actual.trust)
    : declared.known.trust;
  const structured = options.data !== undefined
    ? options.data
    : typeof output === "string"
    ? (trust !== "suspicious" || fieldRules ? parseJsonObject(output) : undefined)
    : output;
  let label = actual ? meetPartial(declared, knownLabel(actual)) : declared;
  // Only an output that would vouch is read as JSON above; one already untrusted (or unlabelled) vouches for nothing.
  const lost = trust !== "suspicious" && structured === undefined && typeof output === "string" &&
    looksLikeJson(output);
  if ((fieldRules || lost) && (typeof structured !== "object" || structured === null)) {
    // It promised structure and did not keep the promise, or JSON that does not parse (cut at a size limit, or
    // malformed): nothing in it vouches for anything, lest a cut make its fields vouch as free text.
    trust = "suspicious";
    label = suspicious(label);
  }
  const name = sourceNameOf(tool);
  // The label and the taint first: whatever happens below, what was read counts as read.
  branch.restrict(label);
  if (trust === "suspicious" || label.unknown.length) branch.taint(name);
  const follow = policy.default.confirmUntrustedFrom !== "named";
  const designated = designatedCall(branch, options.args ?? {}, { tool, follow });
  // What a designated call's output echoes of its own arguments (a ticket's id) is not a quantity it delegates.
  const echoes = designated ? argumentQuantities(options.args ?? {}) : undefined;
  try {
    const deep = indexOutput(branch, name, {
      trust,
      label,
      output,
      structured,
      data: options.data,
      fields,
      trustedFields,
      designated,
      echoes,
    });
    if (deep.length) {
      ledger.record("note", branch.name, {
        tool,
        detail: {
          code: "deep-value",
          message: `${deep.join(", ")} nested beyond the indexing limit: indexed as untrusted text`,
        },
      });
    }
    if (lost) {
      ledger.record("note", branch.name, {
        tool,
        detail: {
          code: "structure-lost",
          message: "the output looks like JSON but does not parse (cut or malformed): untrusted as a whole",
        },
      });
    }
  } catch (error) {
    // Indexing failed (a limit); the label already applies. The output is untrusted, taints the context, and is kept
    // as text if it can be.
    branch.taint(name);
    ledger.record("note", branch.name, { tool, detail: { code: "deep-value", message: errorText(error) } });
    try {
      branch.addSource(name, {
        trust: "suspicious",
        label: suspicious(label),
        texts: [safeText(output)],
        designated,
        echoes,
      });
    } catch {
      // Not even as text: what could not be indexed vouches for nothing.
    }
  }
  if (problem) {
    ledger.record("note", branch.name, { tool, detail: { code: "label-invalid", message: problem } });
    throw new LabelError(`Cannot use the label given for ${tool}: ${problem}; the strictest label applies instead`);
  }
}

interface Indexing {
  readonly trust: Trust;
  readonly label: PartialLabel;
  readonly output: unknown;
  readonly structured: unknown;
  readonly data: unknown;
  readonly fields: readonly string[];
  readonly trustedFields: readonly string[];
  readonly designated: boolean;
  readonly echoes: readonly number[] | undefined;
}

/** Whether the user named the call in their own words; a failure to tell is a no (the stricter answer). */
function designatedCall(
  branch: Branch,
  args: Readonly<Record<string, unknown>>,
  options: DesignationOptions,
): boolean {
  try {
    return isDesignated((value) => designationSources(branch, value), args, options);
  } catch {
    return false;
  }
}

const TRUSTED_RANK = trustRank("trusted");

/**
 * What `isDesignated` asks of a value's sources: a user source that holds it, a source at least trusted that
 * does, and a designated source of any trust that does (each the first found, strongest first). Not every source: a search term recurs in every page a long session
 * read, and listing them all for every call made recording quadratic.
 */
function designationSources(branch: Branch, value: string): Source[] {
  const found: Source[] = [];
  // The user's messages are recorded as trusted: no need to walk the value's untrusted occurrences for them.
  const user = branch.evidence.vouch(value, (id) => branch.sources[id].name === "user", TRUSTED_RANK).sourceId;
  if (user !== undefined) found.push(branch.sources[user]);
  const trusted = branch.evidence.vouch(value, () => true, TRUSTED_RANK).sourceId;
  if (trusted !== undefined) found.push(branch.sources[trusted]);
  // Only a link no trusted source holds is asked about further (followed from a source the user pointed at): the first
  // designated source of any trust that holds it. Other values never need it, so their untrusted occurrences, which a
  // long session repeats, are not walked for every call.
  if (found.length || !isLink(value)) return found;
  const designated = branch.evidence.vouch(value, (id) => branch.sources[id].designated === true, 0).sourceId;
  if (designated !== undefined) found.push(branch.sources[designated]);
  return found;
}

/** Index an output; returns the paths of values nested beyond the limit (read as text). */
function indexOutput(branch: Branch, name: string, item: Indexing): string[] {
  const { trust, label, designated, echoes } = item;
  if (trust === "suspicious" || typeof item.structured !== "object" || item.structured === null) {
    // Untrusted JSON text is indexed once, by its decoded keys and leaves (escapes such as \n cannot hide a value),
    // unless it nests past the limit: then the leaves up to the limit and the rest as text, as below.
    const parsedAlready = typeof item.structured === "object" && item.structured !== null ? item.structured : undefined;
    const json = typeof item.output === "string" && item.data === undefined
      ? parsedAlready ?? parseJsonObject(item.output)
      : undefined;
    // One walk reads the keys and leaves and checks the depth, before anything is indexed.
    const read = json === undefined ? undefined : structuredLeaves(json, LEAF_DEPTH_LIMIT);
    if (read !== undefined) {
      branch.addSource(name, { trust, label, leaves: read, designated, echoes });
      return [];
    }
    // The output's JSON as read above (not parsed a second time), or the data given with it.
    const leaves = readLeaves(
      typeof item.output === "string" ? item.data ?? json : item.output,
    );
    const texts = [...(typeof item.output === "string" ? [item.output] : []), ...leaves.map((leaf) => leaf.text)];
    branch.addSource(name, { trust, label, texts, designated, echoes });
    return leaves.filter((leaf) => leaf.deep).map((leaf) => leaf.path || "(root)");
  }
  // Structured output vouches only for complete field values; fields written by strangers vouch for nothing.
  // A pattern covers a whole subtree: `from` also covers `from.address` and `from[0].name`.
  const isStranger = strangerFields(item.fields, item.trustedFields);
  // Keys are data too: `{"shared_with": {"alice@corp.example": "read"}}` names its reader by a key.
  const leaves = readLeaves(item.structured, "", LEAF_DEPTH_LIMIT, "all");
  const own: string[] = [];
  const stranger: Leaf[] = [];
  const deep: Leaf[] = [];
  for (const leaf of leaves) {
    // A subtree nested past the limit under a stranger's field is the stranger's too.
    if (isStranger(leaf.path)) stranger.push(leaf);
    else if (leaf.deep) deep.push(leaf);
    else own.push(leaf.text);
  }
  branch.addSource(name, { trust, label, fields: own, designated });
  if (deep.length) {
    // A limit makes data less trusted, never more: beyond the depth limit nothing vouches, and the context is tainted.
    const texts = deep.map((leaf) => leaf.text);
    branch.addSource(`${name}[deep]`, { trust: "suspicious", label: suspicious(label), texts, designated, echoes });
  }
  if (stranger.length) {
    const each = eachPattern(item.fields);
    const names = item.fields.filter((_, i) => stranger.some((leaf) => each[i](leaf.path))).sort();
    if (item.trustedFields.length) names.push("other fields");
    // Fields that each hold one value (a sender, a name, an address) are records, the rest text: a value that only
    // records hold may be asked about though the user did not point at the call (see recorded_value.ts).
    const fieldName = `${name}[${names.join(",")}]`;
    const entry = { trust: "suspicious" as const, label: suspicious(label), designated, echoes };
    const records: string[] = [];
    const texts: string[] = [];
    for (const leaf of stranger) (isRecordField(leaf.text) ? records : texts).push(leaf.text);
    if (texts.length) branch.addSource(fieldName, { ...entry, texts });
    if (records.length) branch.addSource(fieldName, { ...entry, texts: records, record: true });
  }
  return deep.map((leaf) => leaf.path || "(root)");
}

/**
 * Which leaf paths strangers wrote: those `untrusted_fields` names, and with
 * `trusted_fields`, every path it does not name (a value with no field name at
 * all, such as an item of a top-level list, included).
 */
function strangerFields(untrusted: readonly string[], trusted: readonly string[]): (path: string) => boolean {
  const named = allPatterns(untrusted);
  if (!trusted.length) return named;
  const platform = allPatterns(trusted);
  return (path) => named(path) || !hasFieldName(path) || !platform(path);
}

/**
 * Matchers compiled once per list of patterns: a compiled policy's list is the same frozen array for every output of
 * its tool. A list that is not frozen could change, so it is compiled again each time.
 */
const ALL_PATTERNS = new WeakMap<readonly string[], (path: string) => boolean>();
const EACH_PATTERN = new WeakMap<readonly string[], readonly ((path: string) => boolean)[]>();

function allPatterns(patterns: readonly string[]): (path: string) => boolean {
  if (!Object.isFrozen(patterns)) return compileFieldPatterns(patterns);
  let matcher = ALL_PATTERNS.get(patterns);
  if (matcher === undefined) ALL_PATTERNS.set(patterns, matcher = compileFieldPatterns(patterns));
  return matcher;
}

function eachPattern(patterns: readonly string[]): readonly ((path: string) => boolean)[] {
  if (!Object.isFrozen(patterns)) return patterns.map((pattern) => compileFieldPatterns([pattern]));
  let matchers = EACH_PATTERN.get(patterns);
  if (matchers === undefined) {
    EACH_PATTERN.set(patterns, matchers = patterns.map((pattern) => compileFieldPatterns([pattern])));
  }
  return matchers;
}

function hasFieldName(path: string): boolean {
  return path.replace(/\[\d+\]/g, "").replace(/^\.+/, "") !== "";
}

/** `label`, made untrusted. */
function suspicious(label: PartialLabel): PartialLabel {
  return meetPartial(label, knownLabel(makeLabel(label.known.readers, "suspicious")));
}

/**
 * Whether text opens as a JSON object with a key (or an empty one) or as an array of objects, arrays or strings:
 * the shapes a structured output has, which a log line such as `[INFO] done` or `[1/3] build` does not.
 */
function looksLikeJson(text: string): boolean {
  return /^\s*(?:\{\s*["}]|\[\s*[[{"\]])/.test(text);
}

/** A JSON object or array, or JSON Lines of them (read as an array); `undefined` for anything else. */
function parseJsonObject(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return undefined;
  try {
    const value = JSON.parse(trimmed);
    // V8's JSON.parse can misread an escaped key as an earlier key holding a backslash (V8 issue 521080746): a key
    // with a backslash is not trusted to stand where the text put it, so the output is read as lost structure.
    if (trimmed.includes("\\") && backslashKey(value)) return undefined;
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return trimmed.includes("\n") ? parseJsonLines(trimmed) : undefined;
  }
}

/** Whether any object key in `value` holds a backslash (no recursion: a hostile output may nest deeply). */
function backslashKey(value: unknown): boolean {
  const stack = [value];
  while (stack.length) {
    const item = stack.pop();
    if (typeof item === "object" && item) {
      for (const key in item) {
        if (!Array.isArray(item) && key.includes("\\")) return true;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

function parseJsonLines(text: string): unknown[] | undefined {
  const values: unknown[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const value = parseJsonObject(line);
    if (value === undefined) return undefined;
    values.push(value);
  }
  return values;
}

function safeText(value: unknown): string {
  try {
    return typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  } catch {
    return "";
  }
}
