/**
 * Validate and compile a parsed policy object into a {@linkcode Policy}.
 *
 * @module
 */
import { errorText, type Label, makeLabel } from "../../core/mod.ts";
import { compileFieldPatterns } from "../../harvest/mod.ts";
import { PolicyError, type PolicyIssue } from "./policy_error.ts";
import { isGapCode, WAIVABLE_GAP_CODES } from "./gap_kinds.ts";
import { EFFECT_TEMPLATE, normalizeEffect } from "./effect_key.ts";
import { shapeIssueToPolicyIssues, suggest } from "./_issues.ts";
import { forbiddenKeys } from "./_forbidden_keys.ts";
import type {
  AnswerSchema,
  ApproverPolicy,
  ArgRule,
  CastPolicy,
  Catalogue,
  FieldSpec,
  OutputSpec,
  Policy,
  Recipient,
  ToolPolicy,
} from "./policy.ts";
import { policySchema, type RawField, type RawLabelRef, type RawPolicy, type RawTool } from "./_schema.ts";
import { parseShape } from "./_shape.ts";

/**
 * Validate a parsed policy object strictly and compile it. Throws
 * {@linkcode PolicyError} listing every issue with its path and a fix hint.
 * Keys named `__proto__`, `constructor` or `prototype` are errors anywhere.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compilePolicy } from "./compile_policy.ts";
 * const policy = compilePolicy({ version: 1, tools: { read_inbox: { output: "untrusted" } } }, "inline");
 * assert.equal(policy.tools.read_inbox.output.kind, "label");
 * assert.throws(() => compilePolicy({ version: 1, tools: { x: { args: { to: { allow: [] } } } } }), /empty allow list/);
 * ```
 */
export function compilePolicy(raw: unknown, source = "policy"): Policy {
  const forbidden = forbiddenKeys(raw);
  if (forbidden.length) throw new PolicyError(source, forbidden);
  const parsed = parseShape(policySchema, raw);
  if (!parsed.success) {
    throw new PolicyError(source, parsed.issues.flatMap((issue) => shapeIssueToPolicyIssues(issue, [])));
  }
  const compiler = new Compiler(parsed.data);
  const policy = compiler.compile(source);
  if (compiler.issues.length) throw new PolicyError(source, compiler.issues);
  return policy;
}

class Compiler {
  readonly issues: PolicyIssue[] = [];
  readonly #raw: RawPolicy;
  readonly #groups: readonly string[];
  readonly #unknownGroup: string;
  #labels: Record<string, Label> = {};

  constructor(raw: RawPolicy) {
    this.#raw = raw;
    this.#unknownGroup = raw.readers?.unknown ?? "public";
    const declared = raw.readers?.groups ?? [this.#unknownGroup];
    this.#groups = [...new Set(declared)].sort();
    if (!this.#groups.includes(this.#unknownGroup)) {
      this.#issue(
        raw.readers?.unknown ? "readers.unknown" : "readers.groups",
        `the unknown-address group "${this.#unknownGroup}" is not in readers.groups`,
        `add "${this.#unknownGroup}" to readers.groups, or set readers.unknown to one of ${this.#list(this.#groups)}`,
      );
    }
  }

  compile(source: string): Policy {
    const raw = this.#raw;
    const top = makeLabel(this.#groups, "trusted");
    for (const [name, spec] of Object.entries(raw.labels ?? {})) {
      if (["all", "trusted", "untrusted", "attested", "suspicious", "unlabelled"].includes(name)) {
        this.#issue(`labels.${name}`, `"${name}" is a reserved word`, "choose another label name");
      }
      this.#labels[name] = this.#label(spec, `labels.${name}`);
    }
    const directory: Record<string, string> = {};
    for (const [address, group] of Object.entries(raw.readers?.directory ?? {})) {
      this.#group(group, `readers.directory.${address}`);
      directory[address.trim().toLowerCase()] = group;
    }
    const catalogues: Record<string, Catalogue> = {};
    for (const [name, spec] of Object.entries(raw.catalogues ?? {})) {
      const entries: Record<string, Label> = {};
      for (const [key, ref] of Object.entries(spec.entries)) {
        entries[key] = this.#labelRef(ref, `catalogues.${name}.entries.${key}`);
      }
      catalogues[name] = { key: spec.key, entries };
    }
    const approvers: Record<string, ApproverPolicy> = {};
    for (const [name, spec] of Object.entries(raw.approvers ?? {})) {
      if (name === "user") {
        this.#issue(
          "approvers.user",
          `"user" is reserved for the user's own confirmation`,
          "choose another approver name",
        );
      }
      spec.mandate.forEach((code, i) => {
        if (!isGapCode(code) || code === "guard-error") {
          this.#issue(
            `approvers.${name}.mandate.${i}`,
            `unknown gap kind "${code}"`,
            suggest(code.replaceAll("_", "-"), WAIVABLE_GAP_CODES) ?? `use one of ${this.#list(WAIVABLE_GAP_CODES)}`,
          );
        }
      });
      approvers[name] = { mandate: spec.mandate.filter(isGapCode) };
    }
    const tools: Record<string, ToolPolicy> = {};
    for (const [name, spec] of Object.entries(raw.tools ?? {})) tools[name] = this.#tool(name, spec ?? {}, catalogues);
    const schemas: Record<string, AnswerSchema> = {};
    for (const [name, spec] of Object.entries(raw.schemas ?? {})) {
      const fields: Record<string, FieldSpec> = {};
      for (const [field, fieldSpec] of Object.entries(spec.fields)) {
        fields[field] = this.#field(fieldSpec, `schemas.${name}.fields.${field}`);
      }
      if (Object.keys(fields).length === 0) {
        this.#issue(`schemas.${name}.fields`, "a schema needs at least one field", "add a bool, int or enum field");
      }
      (spec.tools ?? []).forEach((tool, i) => this.#toolRef(tool, tools, `schemas.${name}.tools.${i}`));
      schemas[name] = {
        fields,
        merge: this.#labelRef(spec.merge, `schemas.${name}.merge`),
        tools: [...(spec.tools ?? [])],
      };
    }
    const casts: Record<string, CastPolicy> = {};
    for (const [tool, spec] of Object.entries(raw.casts ?? {})) {
      casts[tool] = { cast: spec.cast, ceiling: this.#labelRef(spec.ceiling, `casts.${tool}.ceiling`) };
    }
    this.#checkEffects(tools);
    const onTainted = raw.default?.on_tainted ?? "confirm";
    if (onTainted === "allow") {
      this.#issue(
        "default.on_tainted",
        "the default may not be allow: tools the policy does not name would run silently after untrusted input",
        'use "confirm" or "block", and set on_tainted: allow on the tools that may run anyway',
      );
    }
    return deepFreeze({
      source,
      version: 1 as const,
      groups: this.#groups,
      unknownGroup: this.#unknownGroup,
      directory,
      top,
      labels: this.#labels,
      catalogues,
      approvers,
      schemas,
      casts,
      default: {
        onTainted: onTainted === "allow" ? "confirm" as const : onTainted,
        outwardEmbedded: raw.default?.outward_embedded ?? "trusted",
        confirmUntrustedFrom: raw.default?.confirm_untrusted_from ?? "designated",
      },
      tools,
    });
  }

  #tool(name: string, spec: RawTool, catalogues: Record<string, Catalogue>): ToolPolicy {
    const at = `tools.${name}`;
    const args: Record<string, ArgRule> = {};
    for (const [arg, rule] of Object.entries(spec.args ?? {})) {
      if (rule.require === undefined && rule.allow === undefined && rule.embedded === undefined) {
        this.#issue(
          `${at}.args.${arg}`,
          "the rule requires no source, lists no allowed values and checks no embedded links",
          "add require: trusted, or allow: [...]",
        );
      }
      if (rule.allow !== undefined && rule.allow.length === 0) {
        this.#issue(
          `${at}.args.${arg}.allow`,
          "an empty allow list is ambiguous: it could mean no value or every value",
          "list at least one value, or remove allow",
        );
      }
      args[arg] = Object.freeze({
        ...(rule.require ? { require: rule.require } : {}),
        ...(rule.embedded ? { embedded: rule.embedded } : {}),
        allow: Object.freeze([...(rule.allow ?? [])]),
        onViolation: rule.on_violation ?? "block",
      });
    }
    const recipients: Recipient[] = (spec.recipients ?? []).map((item, i) => {
      if (typeof item === "string") {
        this.#group(item, `${at}.recipients.${i}`);
        return Object.freeze({ group: item });
      }
      return Object.freeze({ arg: item.arg });
    });
    const effects = this.#effects(spec.effects ?? [], `${at}.effects`);
    const requiresNoPrior = this.#effects(spec.requires_no_prior ?? [], `${at}.requires_no_prior`);
    if (spec.once) {
      const [once] = this.#effects([spec.once], `${at}.once`);
      if (!effects.includes(once)) effects.push(once);
      if (!requiresNoPrior.includes(once)) requiresNoPrior.push(once);
    }
    let output: OutputSpec = { kind: "unlabelled" };
    if (spec.output === undefined || spec.output === "unlabelled") output = { kind: "unlabelled" };
    else if (typeof spec.output === "object" && "catalogue" in spec.output) {
      if (!Object.hasOwn(catalogues, spec.output.catalogue)) {
        this.#issue(
          `${at}.output.catalogue`,
          `undefined catalogue "${spec.output.catalogue}"`,
          this.#defineHint("catalogues", spec.output.catalogue, Object.keys(catalogues)),
        );
      }
      output = { kind: "catalogue", catalogue: spec.output.catalogue };
    } else output = { kind: "label", label: this.#labelRef(spec.output, `${at}.output`) };
    return Object.freeze({
      output: Object.freeze(output),
      ...(spec.outward === undefined ? {} : { outward: spec.outward }),
      untrustedFields: Object.freeze(this.#fieldPatterns(spec.untrusted_fields ?? [], `${at}.untrusted_fields`)),
      trustedFields: Object.freeze(this.#trustedFields(spec, output, at)),
      ...(spec.on_tainted ? { onTainted: spec.on_tainted } : {}),
      args: Object.freeze(args),
      recipients: Object.freeze(recipients),
      ...(spec.min_trust ? { minTrust: spec.min_trust } : {}),
      effects: Object.freeze(effects),
      requiresPrior: Object.freeze(this.#effects(spec.requires_prior ?? [], `${at}.requires_prior`)),
      requiresNoPrior: Object.freeze(requiresNoPrior),
      needsApproval: spec.needs_approval ?? false,
      ...(spec.prerequisite ? { prerequisite: { args: spec.prerequisite.args } } : {}),
    });
  }

  #checkEffects(tools: Record<string, ToolPolicy>): void {
    const written = new Set(Object.values(tools).flatMap((tool) => tool.effects));
    for (const [name, tool] of Object.entries(tools)) {
      for (
        const [key, effects] of [["requires_prior", tool.requiresPrior], [
          "requires_no_prior",
          tool.requiresNoPrior,
        ]] as const
      ) {
        effects.forEach((effect, i) => {
          if (!written.has(effect)) {
            this.#issue(
              `tools.${name}.${key}.${i}`,
              `no tool writes the effect "${effect}"`,
              `add "${effect}" to the effects of the tool that performs it`,
            );
          }
        });
      }
    }
  }

  #effects(templates: readonly string[], at: string): string[] {
    templates.forEach((template, i) => {
      if (!EFFECT_TEMPLATE.test(template.trim())) {
        this.#issue(
          templates.length > 1 || at.endsWith("s") ? `${at}.${i}` : at,
          `invalid effect "${template}"`,
          "write a name such as legal.precleared, optionally with arguments: legal.precleared{client}",
        );
      }
    });
    return [...new Set(templates.map((template) => normalizeEffect(template.trim())))];
  }

  #field(spec: RawField, at: string): FieldSpec {
    if (spec === "bool" || "bool" in spec) return { type: "bool" };
    if ("int" in spec) {
      if (spec.int.min > spec.int.max) {
        this.#issue(`${at}.int`, `min ${spec.int.min} is above max ${spec.int.max}`, "swap them");
      }
      return { type: "int", min: spec.int.min, max: spec.int.max };
    }
    return { type: "enum", values: [...spec.enum] };
  }

  #labelRef(ref: RawLabelRef, at: string): Label {
    if (typeof ref === "object") return this.#label(ref, at);
    if (ref === "trusted" || ref === "attested") return makeLabel(this.#groups, ref);
    if (ref === "untrusted" || ref === "suspicious") return makeLabel(this.#groups, "suspicious");
    if (Object.hasOwn(this.#labels, ref)) return this.#labels[ref];
    if (Object.hasOwn(this.#raw.labels ?? {}, ref)) return this.#label(this.#raw.labels![ref], `labels.${ref}`);
    this.#issue(
      at,
      `undefined label "${ref}"`,
      this.#defineHint("labels", ref, ["trusted", "untrusted", ...Object.keys(this.#raw.labels ?? {})]),
    );
    return makeLabel([], "suspicious");
  }

  #label(spec: { readers: "all" | string[]; trust: "suspicious" | "attested" | "trusted" }, at: string): Label {
    if (spec.readers === "all") return makeLabel(this.#groups, spec.trust);
    spec.readers.forEach((group, i) => this.#group(group, `${at}.readers.${i}`));
    return makeLabel(spec.readers, spec.trust);
  }

  #group(group: string, at: string): void {
    if (!this.#groups.includes(group)) {
      this.#issue(at, `undefined reader group "${group}"`, this.#defineHint("readers.groups", group, this.#groups));
    }
  }

  #toolRef(tool: string, tools: Record<string, ToolPolicy>, at: string): void {
    if (!Object.hasOwn(tools, tool)) {
      this.#issue(at, `undefined tool "${tool}"`, this.#defineHint("tools", tool, Object.keys(tools)));
    }
  }

  #defineHint(section: string, name: string, known: readonly string[]): string {
    return suggest(name, known) ??
      `define "${name}" under ${section}${known.length ? `, or use one of ${this.#list(known)}` : ""}`;
  }

  #list(items: readonly string[]): string {
    return items.map((item) => `"${item}"`).join(", ");
  }

  /** Trusted field patterns: checked as patterns, and only on an output whose label vouches for something. */
  #trustedFields(spec: RawTool, output: OutputSpec, at: string): string[] {
    const patterns = this.#fieldPatterns(spec.trusted_fields ?? [], `${at}.trusted_fields`);
    if (patterns.length && (output.kind !== "label" || output.label.trust === "suspicious")) {
      this.#issue(
        `${at}.trusted_fields`,
        "trusted_fields keep a trusted output's label, but this output is untrusted or unlabelled",
        "declare output: trusted (or a trusted label), or remove trusted_fields",
      );
    }
    return patterns;
  }

  /** Untrusted field patterns, each checked now so a bad one fails at load, not at the first output. */
  #fieldPatterns(patterns: readonly string[], at: string): string[] {
    patterns.forEach((pattern, index) => {
      try {
        compileFieldPatterns([pattern]);
      } catch (error) {
        this.#issue(
          `${at}[${index}]`,
          `invalid field pattern "${pattern}": ${errorText(error)}`,
          'write a path of keys such as "from", "from.address" or "**.headers"',
        );
      }
    });
    return [...patterns];
  }

  #issue(path: string, message: string, hint: string): void {
    this.issues.push({ path, message, hint });
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
