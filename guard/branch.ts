/**
 * A branch of a conversation: its running label, its taint, its evidence and
 * its rulings. Child branches start from their parent's state and keep their
 * own; they change their parent only through its public methods.
 *
 * @module
 */
import { type Label, Ledger, meet, type PartialLabel, type Trust, trustRank } from "../core/mod.ts";
import { EvidenceIndex, type StructuredLeaf } from "../harvest/mod.ts";
import { statedChanges } from "./derived_value.ts";
import { delegatedQuantities } from "./delegated_value.ts";
import type { DelegatedQuantities, StatedChanges } from "./judge_state.ts";
import { BranchClosedError } from "./guard_errors.ts";
import type { AnswerSchema } from "./policy/mod.ts";
import { RulingBook } from "./ruling_book.ts";
import type { Source } from "./source.ts";

/** What a new source brings: its trust and label, and its text (any run of words vouches) or fields (only whole values). */
export interface SourceEntry {
  /** How far the source vouches for values found in it. */
  readonly trust: Trust;
  /** Its label. */
  readonly label: PartialLabel;
  /** Free text: any whole-token run inside it is evidence. */
  readonly texts?: readonly string[];
  /** Complete field values: only a value equal to a whole field is evidence. */
  readonly fields?: readonly string[];
  /** The keys and leaves of decoded JSON (see `structuredLeaves`): each a run of free text of its own. */
  readonly leaves?: readonly StructuredLeaf[];
  /** Whether the user designated the call that produced it (see `isDesignated`). */
  readonly designated?: boolean;
  /** Whether strangers wrote it as records, each field one value (see `Source.record`). */
  readonly record?: boolean;
  /** For a designated source: the quantities of its call's own arguments, which its output echoes (not delegated). */
  readonly echoes?: readonly number[];
}

/** How a branch starts. */
export interface BranchInit {
  /** `main`, or `main/child` for a child. */
  readonly name: string;
  /** The starting label. */
  readonly label: PartialLabel;
  /** Every source of the conversation (shared by all branches), in order. */
  readonly sources: Source[];
  /** The conversation's ruling counter. */
  readonly counter: { rulings: number; children: number };
  /** The conversation's ledger (default: a new one). A branch and its children share it. */
  readonly ledger?: Ledger;
  /** The parent branch and the schema its answer must fit (child branches only). */
  readonly parent?: {
    readonly branch: Branch;
    readonly schema: { readonly name: string; readonly spec: AnswerSchema };
  };
}

/**
 * A branch's state. Recording a source costs time linear in its own size,
 * however many unlabelled tools the branch has read before.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Branch } from "./branch.ts";
 * import { knownLabel, makeLabel } from "../core/mod.ts";
 * const top = knownLabel(makeLabel(["public", "staff"], "trusted"));
 * const main = new Branch({ name: "main", label: top, sources: [], counter: { rulings: 0, children: 0 } });
 * main.addSource("tool:wiki", { trust: "suspicious", label: { known: top.known, unknown: ["wiki"] }, texts: ["hello"] });
 * assert.deepEqual(main.label.unknown, ["wiki"]);
 * assert.deepEqual(main.tainters, ["tool:wiki"]);
 * assert.equal(main.child({ name: "yes_no", spec: { fields: {}, merge: top.known, tools: [] } }).ledger, main.ledger);
 * ```
 */
export class Branch {
  /** The branch's name. */
  readonly name: string;
  /** The parent and the schema of the answer, for a child branch. */
  readonly parent: BranchInit["parent"];
  /** The evidence this branch has seen (a child sees its parent's too). */
  readonly evidence: EvidenceIndex;
  /** The rulings this branch minted. */
  readonly rulings: RulingBook;
  /** The ledger: the audit log and the committed effects, shared with the parent and children. */
  readonly ledger: Ledger;
  readonly #sources: Source[];
  readonly #counter: { rulings: number; children: number };
  #known: Label;
  readonly #unknown: Set<string>;
  #label: PartialLabel | undefined;
  readonly #tainters: string[] = [];
  readonly #tainted = new Set<string>();
  #stated: StatedChanges;
  #delegated: DelegatedQuantities;
  #closed = false;

  /** Make a branch; a child is made with {@linkcode Branch.child}. */
  constructor(init: BranchInit, evidence: EvidenceIndex = new EvidenceIndex()) {
    this.name = init.name;
    this.parent = init.parent;
    this.evidence = evidence;
    this.rulings = new RulingBook(init.name, init.counter);
    this.ledger = init.ledger ?? new Ledger();
    this.#sources = init.sources;
    this.#counter = init.counter;
    this.#known = init.label.known;
    this.#unknown = new Set(init.label.unknown);
    this.#label = init.label;
    this.#stated = init.parent?.branch.stated ?? { numbers: [] };
    this.#delegated = init.parent?.branch.delegated ?? { values: [], sources: [] };
  }

  /** The changes the user stated in their own words (see `derivations`), for values computed from them. */
  get stated(): StatedChanges {
    return this.#stated;
  }

  /** The quantities in the sources the user designated that are below trusted (see `delegatedQuantities`). */
  get delegated(): DelegatedQuantities {
    return this.#delegated;
  }

  /** The running label. */
  get label(): PartialLabel {
    this.#label ??= Object.freeze({ known: this.#known, unknown: Object.freeze([...this.#unknown].sort()) });
    return this.#label;
  }

  /** Names of the untrusted sources read, in order (a live, read-only view). */
  get tainters(): readonly string[] {
    return this.#tainters;
  }

  /** Every source of the conversation (a live, read-only view). */
  get sources(): readonly Source[] {
    return this.#sources;
  }

  /** Whether the branch was closed. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Make the label stricter: meet it with `label`. Never throws. */
  restrict(label: PartialLabel): void {
    // meet() keeps the meets of frozen labels: recording a tool's outputs again costs no new label.
    const known = meet(this.#known, label.known);
    if (
      known !== this.#known &&
      (known.trust !== this.#known.trust || known.readers.length !== this.#known.readers.length)
    ) {
      this.#known = known;
      this.#label = undefined;
    }
    for (const tool of label.unknown) {
      if (this.#unknown.has(tool)) continue;
      this.#unknown.add(tool);
      this.#label = undefined;
    }
  }

  /** Count a source as untrusted input this branch has read. */
  taint(name: string): void {
    if (this.#tainted.has(name)) return;
    this.#tainted.add(name);
    this.#tainters.push(name);
  }

  /** Record a source: the label and taint apply first, then its text and fields are indexed as evidence. */
  addSource(name: string, entry: SourceEntry): Source {
    this.assertOpen();
    this.restrict(entry.label);
    if (entry.trust === "suspicious" || entry.label.unknown.length) this.taint(name);
    const id = this.#sources.length;
    const vouches = entry.fields ? "fields" : "text";
    const source: Source = Object.freeze({
      id,
      name,
      trust: entry.trust,
      label: entry.label,
      vouches,
      ...(entry.designated ? { designated: true } : {}),
      ...(entry.record ? { record: true } : {}),
    });
    this.#sources.push(source);
    // Indexed by trust rank, so a look-up finds the strongest source first and can stop there.
    const rank = trustRank(entry.trust);
    if (name === "user") { for (const text of entry.texts ?? []) this.#stated = statedChanges(text, this.#stated); }
    if (entry.designated && rank < trustRank("trusted")) {
      const texts = [...entry.texts ?? [], ...entry.fields ?? [], ...(entry.leaves ?? []).map(String)];
      this.#delegated = delegatedQuantities(texts, name, this.#delegated, entry.echoes);
    }
    if (entry.fields) this.evidence.addFields(source.id, entry.fields, rank);
    for (const text of entry.texts ?? []) this.evidence.addText(source.id, text, rank);
    if (entry.leaves !== undefined) this.evidence.addLeaves(source.id, entry.leaves, rank);
    return source;
  }

  /** Open a child branch with this branch's label, taint and evidence; it keeps its own from then on. */
  child(schema: { readonly name: string; readonly spec: AnswerSchema }): Branch {
    this.assertOpen();
    const count = ++this.#counter.children;
    const child = new Branch({
      name: `${this.name}/child${count === 1 ? "" : `-${count}`}`,
      label: this.label,
      sources: this.#sources,
      counter: this.#counter,
      ledger: this.ledger,
      parent: { branch: this, schema },
    }, this.evidence.fork());
    for (const name of this.#tainters) child.taint(name);
    return child;
  }

  /** Close the branch: it accepts nothing more. */
  close(): void {
    this.assertOpen();
    this.#closed = true;
  }

  /** Throw {@linkcode BranchClosedError} if the branch was closed. */
  assertOpen(): void {
    if (this.#closed) throw new BranchClosedError(`Cannot use branch "${this.name}": it was closed`);
  }
}
