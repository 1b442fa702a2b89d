/**
 * What an MCP server says about its own tools, read as pab labels: GitHub MCP
 * server's `_meta.ifc` labels on tool results, and the tool annotations
 * (`readOnlyHint`, `openWorldHint`, `destructiveHint`) in `tools/list`.
 *
 * These are the server's claims, so they are read conservatively and only
 * ever used under a ceiling the policy sets (see {@linkcode ServerSignals}):
 *
 * - `_meta.ifc.integrity`: `"trusted"` is trusted; anything else (GitHub's
 *   `"untrusted"`, a missing or unknown value) is suspicious.
 * - `_meta.ifc.confidentiality`: `"public"` means every reader group; any
 *   other entry counts only if it is a reader group of the policy (GitHub's
 *   logins are not), so private data without matching groups may be read by
 *   nobody.
 * - annotations (for a result without an `ifc` label): a tool that reads
 *   the open world (`openWorldHint` is not `false`, as the MCP default) or
 *   may change things (`readOnlyHint` is not `true`) returns suspicious data;
 *   a read-only, closed-world tool returns attested data (never trusted: an
 *   annotation is only a hint). Annotations say nothing about secrecy: every
 *   reader group, bounded by the ceiling.
 *
 * @module
 */
import { isRecord, type Label, makeLabel, meet } from "../../core/mod.ts";
import type { Policy } from "../../guard/mod.ts";

/**
 * The MCP tool annotations pab reads (all optional hints).
 *
 * @example
 * ```ts
 * import type { ToolAnnotations } from "./server_signals.ts";
 * const hints: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
 * ```
 */
export interface ToolAnnotations {
  /** The tool does not change its environment. */
  readonly readOnlyHint?: boolean;
  /** The tool may change things destructively (read for documentation; labels do not use it). */
  readonly destructiveHint?: boolean;
  /** The tool reaches an open world (the web, other people's data); the MCP default is `true`. */
  readonly openWorldHint?: boolean;
}

/**
 * The label of one tool result's `_meta.ifc` (GitHub MCP server's format:
 * `{"integrity": "trusted"|"untrusted", "confidentiality": ["public"] or
 * reader names}`), or `undefined` when the result carries none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compilePolicy } from "../../guard/mod.ts";
 * import { labelFromIfc } from "./server_signals.ts";
 * const policy = compilePolicy({ version: 1, readers: { groups: ["public", "staff"] } });
 * assert.deepEqual(labelFromIfc({ ifc: { integrity: "untrusted", confidentiality: ["public"] } }, policy), {
 *   readers: ["public", "staff"],
 *   trust: "suspicious",
 * });
 * assert.deepEqual(labelFromIfc({ ifc: { integrity: "trusted", confidentiality: ["octocat", "staff"] } }, policy), {
 *   readers: ["staff"],
 *   trust: "trusted",
 * });
 * assert.equal(labelFromIfc({}, policy), undefined);
 * ```
 */
export function labelFromIfc(meta: unknown, policy: Policy): Label | undefined {
  if (!isRecord(meta) || !Object.hasOwn(meta, "ifc")) return undefined;
  const ifc = meta.ifc;
  if (!isRecord(ifc)) return makeLabel([], "suspicious");
  const trust = ifc.integrity === "trusted" ? "trusted" : "suspicious";
  const names = Array.isArray(ifc.confidentiality) ? ifc.confidentiality : [];
  const groups = policy.top.readers;
  const readers = names.includes("public") ? groups : groups.filter((group) => names.includes(group));
  return makeLabel(readers, trust);
}

/**
 * The label a tool's annotations imply for what it returns.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compilePolicy } from "../../guard/mod.ts";
 * import { labelFromAnnotations } from "./server_signals.ts";
 * const policy = compilePolicy({ version: 1 });
 * assert.equal(labelFromAnnotations({ readOnlyHint: true, openWorldHint: false }, policy).trust, "attested");
 * assert.equal(labelFromAnnotations({ readOnlyHint: true }, policy).trust, "suspicious");
 * assert.equal(labelFromAnnotations(undefined, policy).trust, "suspicious");
 * ```
 */
export function labelFromAnnotations(annotations: ToolAnnotations | undefined, policy: Policy): Label {
  const closed = annotations?.openWorldHint === false && annotations?.readOnlyHint === true;
  return makeLabel(policy.top.readers, closed ? "attested" : "suspicious");
}

/**
 * The signals one server gave in this session, and the gradual label they
 * settle a tool's data to: the meet of the labels of all its results (each
 * result's `_meta.ifc` label, or what the annotations imply for a result
 * without one), never above the ceiling.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compilePolicy } from "../../guard/mod.ts";
 * import { makeLabel } from "../../core/mod.ts";
 * import { ServerSignals } from "./server_signals.ts";
 * const policy = compilePolicy({ version: 1 });
 * const signals = new ServerSignals(policy);
 * signals.annotate("get_me", { readOnlyHint: true, openWorldHint: false });
 * assert.equal(signals.labelOf("get_me", makeLabel(["public"], "trusted")).trust, "attested");
 * signals.observe("get_me", { ifc: { integrity: "untrusted", confidentiality: ["public"] } });
 * assert.equal(signals.labelOf("get_me", makeLabel(["public"], "trusted")).trust, "suspicious");
 * ```
 */
export class ServerSignals {
  readonly #policy: Policy;
  readonly #annotations = new Map<string, ToolAnnotations>();
  readonly #observed = new Map<string, Label>();

  /** Signals read against a policy's reader groups. */
  constructor(policy: Policy) {
    this.#policy = policy;
  }

  /** Remember a tool's annotations from `tools/list` (the latest listing wins). */
  annotate(tool: string, annotations: unknown): void {
    const hints = isRecord(annotations) ? annotations : {};
    this.#annotations.set(tool, {
      readOnlyHint: hints.readOnlyHint === true,
      destructiveHint: hints.destructiveHint !== false,
      openWorldHint: hints.openWorldHint !== false,
    });
  }

  /**
   * Fold one result into the tool's label: its `_meta.ifc` label, or for a
   * result without one, what the annotations imply. Returns the result's own
   * `ifc` label, if any.
   */
  observe(tool: string, meta: unknown): Label | undefined {
    const label = labelFromIfc(meta, this.#policy);
    const folded = label ?? labelFromAnnotations(this.#annotations.get(tool), this.#policy);
    const before = this.#observed.get(tool);
    this.#observed.set(tool, before ? meet(before, folded) : folded);
    return label;
  }

  /** The tool's label from every result so far (before any, from its annotations), capped by the ceiling. */
  labelOf(tool: string, ceiling: Label): Label {
    const label = this.#observed.get(tool) ?? labelFromAnnotations(this.#annotations.get(tool), this.#policy);
    return meet(label, ceiling);
  }
}
