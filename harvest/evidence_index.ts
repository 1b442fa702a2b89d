/**
 * The evidence index: where each value the model has seen came from.
 *
 * Sources are indexed as they arrive, so checking an argument costs about the
 * size of the argument, not of the conversation:
 *
 * - free text is indexed by token bigram (and unigram), so a lookup walks only
 *   the postings of the value's rarest bigram and verifies each candidate;
 * - structured output that vouches only for whole fields is indexed by the
 *   full normalised token sequence of each field.
 *
 * An index can be forked: the child sees everything its parent had at the
 * time and after, and adds its own sources without the parent seeing them.
 *
 * @module
 */
import { tokenize } from "./normalize.ts";

/** How a source matched a value. */
export type MatchKind = "text" | "field";

/** One source in which a value was found. */
export interface EvidenceMatch {
  /** The source's id, as given to {@linkcode EvidenceIndex.addText} or {@linkcode EvidenceIndex.addFields}. */
  readonly sourceId: number;
  /** `text` for a whole-token run inside free text, `field` for a complete field value. */
  readonly kind: MatchKind;
}

const BIGRAM_SHIFT = 2 ** 26;

/**
 * A token index over every source the model has seen.
 *
 * @example
 * ```ts
 * import { EvidenceIndex } from "./evidence_index.ts";
 * const index = new EvidenceIndex();
 * index.addText(0, "Please write to steve@attacker.example today");
 * index.addFields(1, ["alice@corp.example"]);
 * console.log(index.find("STEVE@attacker.example").map((m) => m.sourceId)); // [0]
 * console.log(index.find("eve@attacker.example").length); // 0
 * console.log(index.find("alice@corp.example")); // [{ sourceId: 1, kind: "field" }]
 * ```
 */
export class EvidenceIndex {
  readonly #parent: EvidenceIndex | undefined;
  readonly #tokenIds: Map<string, number>;
  /** Token ids of every text source, by source id. */
  #texts = new Map<number, number[]>();
  /** token id -> flat [sourceId, position, ...] */
  #unigrams = new Map<number, number[]>();
  /** bigram key -> flat [sourceId, position, ...] */
  #bigrams = new Map<number, number[]>();
  /** normalised field text -> source ids */
  #fields = new Map<string, Set<number>>();

  /** Make an empty index, or a child of `parent`. */
  constructor(parent?: EvidenceIndex) {
    this.#parent = parent;
    this.#tokenIds = parent ? parent.#tokenIds : new Map();
  }

  /** A child index that sees this one's sources and keeps its own apart. */
  fork(): EvidenceIndex {
    return new EvidenceIndex(this);
  }

  /** Index free text: any whole-token run inside it is evidence. */
  addText(sourceId: number, text: string): void {
    const tokens = this.#intern(tokenize(text));
    let stored = this.#texts.get(sourceId);
    if (!stored) this.#texts.set(sourceId, stored = []);
    // Separate appended text from the previous chunk with a token no value contains; append in place (linear).
    if (stored.length) stored.push(-1);
    const offset = stored.length;
    for (const token of tokens) stored.push(token);
    for (let i = 0; i < tokens.length; i++) {
      push(this.#unigrams, tokens[i], sourceId, offset + i);
      if (i + 1 < tokens.length) push(this.#bigrams, bigramKey(tokens[i], tokens[i + 1]), sourceId, offset + i);
    }
  }

  /** Index complete field values: only a value equal to a whole field is evidence. */
  addFields(sourceId: number, values: Iterable<string>): void {
    for (const value of values) {
      const key = tokenize(value).join(" ");
      if (!key) continue;
      let ids = this.#fields.get(key);
      if (!ids) this.#fields.set(key, ids = new Set());
      ids.add(sourceId);
    }
  }

  /** Every source that contains `value` as whole tokens (text) or as a complete field. */
  find(value: string): EvidenceMatch[] {
    const words = tokenize(value);
    if (words.length === 0) return [];
    const matches = new Map<number, MatchKind>();
    this.#collect(words, matches);
    return [...matches].map(([sourceId, kind]) => ({ sourceId, kind })).sort((a, b) => a.sourceId - b.sourceId);
  }

  #collect(words: string[], matches: Map<number, MatchKind>): void {
    if (this.#parent) this.#parent.#collect(words, matches);
    for (const id of this.#fields.get(words.join(" ")) ?? []) if (!matches.has(id)) matches.set(id, "field");
    const ids = words.map((word) => this.#tokenIds.get(word));
    if (ids.some((id) => id === undefined)) return;
    const tokens = ids as number[];
    if (tokens.length === 1) {
      const postings = this.#unigrams.get(tokens[0]) ?? [];
      for (let i = 0; i < postings.length; i += 2) if (!matches.has(postings[i])) matches.set(postings[i], "text");
      return;
    }
    // Walk the rarest bigram's postings and verify each candidate in place.
    let rarest = -1;
    let postings: number[] | undefined;
    for (let j = 0; j + 1 < tokens.length; j++) {
      const list = this.#bigrams.get(bigramKey(tokens[j], tokens[j + 1]));
      if (!list) return;
      if (!postings || list.length < postings.length) [postings, rarest] = [list, j];
    }
    if (!postings) return;
    for (let i = 0; i < postings.length; i += 2) {
      const sourceId = postings[i];
      if (matches.has(sourceId)) continue;
      const start = postings[i + 1] - rarest;
      const text = this.#texts.get(sourceId);
      if (text && start >= 0 && start + tokens.length <= text.length && tokens.every((t, k) => text[start + k] === t)) {
        matches.set(sourceId, "text");
      }
    }
  }

  #intern(words: string[]): number[] {
    return words.map((word) => {
      let id = this.#tokenIds.get(word);
      if (id === undefined) this.#tokenIds.set(word, id = this.#tokenIds.size);
      return id;
    });
  }
}

function bigramKey(a: number, b: number): number {
  return a * BIGRAM_SHIFT + b;
}

function push(map: Map<number, number[]>, key: number, sourceId: number, position: number): void {
  let list = map.get(key);
  if (!list) map.set(key, list = []);
  list.push(sourceId, position);
}
