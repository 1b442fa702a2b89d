/**
 * A branch's book of rulings: mint them bound to a call, its gaps and the
 * branch's label; verify and bind them to a decision; spend them once.
 *
 * @module
 */
import { canonicalJson, type PartialLabel } from "../core/mod.ts";
import { type Decision, makeDecision, type Waiver } from "./decision.ts";
import { type Gap, gapKey, type Note } from "./gap.ts";
import type { Ruling } from "./ruling.ts";
import type { ToolCall } from "./tool_call.ts";

/**
 * Rulings one branch minted. A ruling is usable only if this book minted that
 * very object, it is unspent, and the call, the branch label and (gap by gap)
 * the gaps are the ones it was shown with.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RulingBook } from "./ruling_book.ts";
 * import { makeToolCall } from "./tool_call.ts";
 * import { knownLabel, makeLabel } from "../core/mod.ts";
 * const book = new RulingBook("main", { rulings: 0 });
 * const call = makeToolCall("refund", { amount: 120 });
 * const label = knownLabel(makeLabel(["staff"], "trusted"));
 * const ruling = book.mint("manager", call, [{ code: "approval", severity: "block", message: "needs a ruling" }], label);
 * assert.equal(book.verify(ruling, call, label), undefined);
 * assert.match(book.verify(ruling, call, knownLabel(makeLabel([], "suspicious"))) ?? "", /another label/);
 * book.spend([ruling]);
 * assert.equal(book.verify(ruling, call, label), "it was already spent");
 * ```
 */
export class RulingBook {
  readonly #branch: string;
  readonly #counter: { rulings: number };
  readonly #minted = new Map<string, Ruling>();
  readonly #spent = new Set<string>();

  /** A book for one branch; `counter` is shared by a conversation so ids stay unique. */
  constructor(branch: string, counter: { rulings: number }) {
    this.#branch = branch;
    this.#counter = counter;
  }

  /** Mint a ruling for a call, bound to the exact gaps and label it was shown with. */
  mint(approver: string, call: ToolCall, gaps: readonly Gap[], label: PartialLabel): Ruling {
    const ruling: Ruling = Object.freeze({
      id: `${approver}#${++this.#counter.rulings}`,
      approver,
      tool: call.tool,
      fingerprint: call.fingerprint,
      covers: Object.freeze([...new Set(gaps.map((gap) => gap.code))]),
      gaps: Object.freeze([...new Set(gaps.map(gapKey))]),
      label: canonicalJson(label),
      branch: this.#branch,
    });
    this.#minted.set(ruling.id, ruling);
    return ruling;
  }

  /** Why a ruling cannot be used for this call under this label, or `undefined` when it can. */
  verify(ruling: Ruling, call: ToolCall, label: PartialLabel): string | undefined {
    try {
      if (typeof ruling !== "object" || ruling === null || this.#minted.get(ruling.id) !== ruling) {
        return "it was not issued by this branch";
      }
    } catch {
      return "it cannot be read";
    }
    if (this.#spent.has(ruling.id)) return "it was already spent";
    if (!call.fingerprint || ruling.fingerprint !== call.fingerprint) return "it approves another call";
    if (ruling.label !== canonicalJson(label)) {
      return "it was given under another label than the branch has now; ask again";
    }
    return undefined;
  }

  /**
   * Waive the decision's gaps that usable rulings were shown (a user's ruling
   * waives only `confirm` gaps); note every ruling that cannot be used.
   * Returns the new decision and the rulings it relies on.
   */
  bind(
    decision: Decision,
    call: ToolCall,
    offered: readonly Ruling[],
    label: PartialLabel,
  ): { decision: Decision; used: Ruling[] } {
    const usable: Ruling[] = [];
    const notes: Note[] = [];
    for (const ruling of offered) {
      const why = this.verify(ruling, call, label);
      if (why) notes.push({ code: "ruling-ignored", message: `ruling ${rulingId(ruling)} ignored: ${why}` });
      else usable.push(ruling);
    }
    const open: Gap[] = [];
    const waived: Waiver[] = [];
    const used = new Set<Ruling>();
    for (const gap of decision.gaps) {
      const key = gapKey(gap);
      const ruling = usable.find((candidate) =>
        candidate.gaps.includes(key) && (candidate.approver !== "user" || gap.severity === "confirm")
      );
      if (!ruling) {
        open.push(gap);
        continue;
      }
      used.add(ruling);
      if (!waived.some((waiver) => waiver.code === gap.code && waiver.ruling === ruling.id)) {
        waived.push({ code: gap.code, approver: ruling.approver, ruling: ruling.id });
      }
    }
    const { outcome: _, ...data } = decision;
    return {
      decision: makeDecision({
        ...data,
        gaps: open,
        waived: [...decision.waived, ...waived],
        notes: [...decision.notes, ...notes],
      }),
      used: [...used],
    };
  }

  /** Spend rulings: none of them can be used again. */
  spend(rulings: readonly Ruling[]): void {
    for (const ruling of rulings) this.#spent.add(ruling.id);
  }
}

function rulingId(ruling: unknown): string {
  try {
    return String((ruling as Ruling).id);
  } catch {
    return "(unreadable)";
  }
}
