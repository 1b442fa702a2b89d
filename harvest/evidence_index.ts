/**
 * The evidence index: where each value the model has seen came from.
 *
 * Flat and recorded once. Every source's tokens (see `tokenize`: a typed value
 * is one token) are appended to one stream of interned token ids, and each
 * position is chained to the previous position of the same token in a source
 * of the same rank. So:
 *
 * - a typed value (one token) is found by one hash look-up: the head of its
 *   chain is a match;
 * - a run of tokens walks the chain of its rarest token and verifies in place,
 *   stopping at the first source that suffices ({@linkcode EvidenceIndex.vouch});
 * - a complete field is found by the hash of its whole token sequence.
 *
 * Ranks (a small number per source, such as a trust rank) keep chains apart,
 * so asking for a trusted source never walks the untrusted ones, however often
 * a value recurs there. Sources are named lazily: only
 * {@linkcode EvidenceIndex.find} lists them all.
 *
 * An index can be forked: the child sees everything its parent had at the
 * time and after, and adds its own sources without the parent seeing them.
 *
 * @module
 */
import { tokenize } from "./normalize.ts";
import type { StructuredLeaf } from "./structured_leaves.ts";
import { ownCopy } from "./own_copy.ts";
import { scanText } from "./scan_text.ts";
import { TokenStream } from "./token_stream.ts";
import { TokenTable } from "./token_table.ts";

/** How a source matched a value. */
export type MatchKind = "text" | "field";

/** One source in which a value was found. */
export interface EvidenceMatch {
  /** The source's id, as given to {@linkcode EvidenceIndex.addText} or {@linkcode EvidenceIndex.addFields}. */
  readonly sourceId: number;
  /** `text` for a whole-token run inside free text, `field` for a complete field value. */
  readonly kind: MatchKind;
}

/** The answer of {@linkcode EvidenceIndex.vouch}. */
export interface Vouch {
  /** The first source found that contains the value, has at least the rank asked for and is accepted. */
  readonly sourceId: number | undefined;
  /** When no source vouches: some source that contains the value all the same (for "appears only in …"). */
  readonly seenIn: number | undefined;
}

/** A short leaf's token ids, and the source and rank it was last indexed for. */
interface KnownLeaf {
  readonly ids: number[];
  source: number;
  rank: number;
}

/** Keys and leaves up to this many characters have their token ids remembered; at most SHORT_LEAVES_KEPT of them. */
const SHORT_LEAF = 40;
const SHORT_LEAVES_KEPT = 2048;
/** Looked-up values up to this many characters are remembered; at most LOOKUPS_KEPT of them. */
const LOOKUP_MAX_LENGTH = 4096;
const LOOKUPS_KEPT = 64;

/** The highest rank; ranks are whole numbers from 0 to this. */
export const MAX_RANK = 15;

/**
 * A token index over every source the model has seen.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EvidenceIndex } from "./evidence_index.ts";
 * const index = new EvidenceIndex();
 * index.addText(0, "Please write to steve@attacker.example today");
 * index.addFields(1, ["alice@corp.example"], 2);
 * assert.deepEqual(index.find("STEVE@attacker.example").map((m) => m.sourceId), [0]);
 * assert.equal(index.find("eve@attacker.example").length, 0);
 * assert.deepEqual(index.find("alice@corp.example"), [{ sourceId: 1, kind: "field" }]);
 * assert.deepEqual(index.vouch("alice@corp.example", () => true, 2), { sourceId: 1, seenIn: 1 });
 * assert.deepEqual(index.vouch("steve@attacker.example", () => true, 2), { sourceId: undefined, seenIn: 0 });
 * ```
 */
export class EvidenceIndex {
  readonly #tokenIds: TokenTable;
  readonly #stream = new TokenStream();
  /** This index's stream, then its parent's, grandparent's, ... */
  readonly #lineage: readonly TokenStream[];
  /**
   * Values looked up recently: their ids (which never change), or, for a value not indexed, how many tokens the
   * table held then (a new token could make it indexed).
   */
  readonly #lookups = new Map<string, Int32Array | number>();
  /** Token ids of short structured keys and leaves seen recently (see `#addLeaf`). */
  #shortLeaves = new Map<string, KnownLeaf>();
  #olderLeaves = new Map<string, KnownLeaf>();

  /** Make an empty index, or a child of `parent`. */
  constructor(parent?: EvidenceIndex) {
    this.#tokenIds = parent ? parent.#tokenIds : new TokenTable();
    this.#lineage = parent ? [this.#stream, ...parent.#lineage] : [this.#stream];
  }

  /** A child index that sees this one's sources and keeps its own apart. */
  fork(): EvidenceIndex {
    return new EvidenceIndex(this);
  }

  /** Index free text: any whole-token run inside it is evidence. `rank` (0 to 15) is the caller's, e.g. a trust rank. */
  addText(sourceId: number, text: string, rank = 0): void {
    this.#stream.startText(sourceId, checkRank(rank));
    this.#scan(text);
  }

  /** Scan `text` into this index's stream, after the caller started a text. */
  #scan(text: string): void {
    writingTable = this.#tokenIds;
    writingStream = this.#stream;
    try {
      scanText(text, pushToken, pushPlain);
    } finally {
      // Let go of this index: a module variable must not keep a dropped guard's evidence alive.
      writingTable = NO_TABLE;
      writingStream = NO_STREAM;
    }
  }

  /**
   * Index a structured value once, as free text: every object key and every
   * scalar leaf (decoded, so JSON escapes cannot hide a value) is a run of its
   * own. Use it instead of indexing both the JSON text and its leaves.
   * Throws a `TypeError` for a value nested more than 64 levels.
   */
  addStructured(sourceId: number, value: unknown, rank = 0): void {
    this.#walk(sourceId, value, 0, checkRank(rank));
  }

  #walk(sourceId: number, item: unknown, depth: number, rank: number): void {
    if (depth > 64) throw new TypeError("Cannot index a structured value nested more than 64 levels");
    if (item === null || item === undefined) return;
    if (typeof item === "object") {
      if (Array.isArray(item)) { for (let i = 0; i < item.length; i++) this.#walk(sourceId, item[i], depth + 1, rank); }
      else {
        const record = item as Record<string, unknown>;
        for (const key of Object.keys(record)) {
          this.#addLeaf(sourceId, key, rank);
          this.#walk(sourceId, record[key], depth + 1, rank);
        }
      }
    } else if (typeof item === "number") this.#addNumber(sourceId, item, rank);
    else if (typeof item === "string" || typeof item === "bigint" || typeof item === "boolean") {
      this.#addLeaf(sourceId, String(item), rank);
    }
  }

  /**
   * Index the keys and leaves `structuredLeaves` read from a value: the same runs as `addStructured` gives the
   * value itself.
   */
  addLeaves(sourceId: number, leaves: readonly StructuredLeaf[], rank = 0): void {
    const checked = checkRank(rank);
    for (let i = 0; i < leaves.length; i++) {
      const leaf = leaves[i];
      if (typeof leaf === "number") this.#addNumber(sourceId, leaf, checked);
      else this.#addLeaf(sourceId, leaf, checked);
    }
  }

  #addNumber(sourceId: number, value: number, rank: number): void {
    if (value >= 0 && value < 1e7 && Number.isInteger(value)) {
      // A whole number below 10,000,000 is one number token, as `scanText` reads it (checked by a property test).
      this.#stream.startText(sourceId, rank);
      this.#stream.push(this.#tokenIds.intern(`num:${value}`, TokenStream.MAX_TOKENS));
    } else this.#addLeaf(sourceId, String(value), rank);
  }

  /**
   * Index one key or leaf of a structured value as a run of its own. Short ones recur (keys, statuses, addresses):
   * their token ids are remembered, so a repeat costs one map look-up instead of a scan. The ids are what a scan
   * would push, because interning gives a token the same id every time.
   */
  #addLeaf(sourceId: number, text: string, rank: number): void {
    if (text.length > SHORT_LEAF) {
      this.#stream.startText(sourceId, rank);
      return this.#scan(text);
    }
    let known = this.#shortLeaves.get(text);
    if (known === undefined) {
      known = this.#olderLeaves.get(text);
      if (known !== undefined) this.#keepLeaf(text, known);
    }
    if (known !== undefined) {
      // The same leaf again in the same source and rank adds no evidence: every look-up answers by source.
      if (known.source === sourceId && known.rank === rank) return;
      known.source = sourceId;
      known.rank = rank;
      this.#stream.startText(sourceId, rank);
      for (let i = 0; i < known.ids.length; i++) this.#stream.push(known.ids[i]);
      return;
    }
    this.#stream.startText(sourceId, rank);
    const start = this.#stream.length;
    this.#scan(text);
    this.#keepLeaf(ownCopy(text), { ids: this.#stream.tokensFrom(start), source: sourceId, rank });
  }

  /**
   * Remember a short leaf's ids. Two generations: when the recent one is full it becomes the older one, and a leaf
   * found there moves back, so values that recur (keys, addresses) outlive a stream of one-off ones.
   */
  #keepLeaf(text: string, leaf: KnownLeaf): void {
    if (this.#shortLeaves.size >= SHORT_LEAVES_KEPT) {
      this.#olderLeaves = this.#shortLeaves;
      this.#shortLeaves = new Map();
    }
    this.#shortLeaves.set(text, leaf);
  }

  /** Index complete field values: only a value equal to a whole field is evidence. */
  addFields(sourceId: number, values: Iterable<string>, rank = 0): void {
    const checked = checkRank(rank);
    for (const value of values) {
      // The value's tokens are interned as a scan reads them (a plain word with no string made), into a scratch list.
      writingTable = this.#tokenIds;
      writingStream = null;
      fieldLength = 0;
      try {
        scanText(value, pushToken, pushPlain);
      } finally {
        writingTable = NO_TABLE;
        writingStream = NO_STREAM;
      }
      if (fieldLength) this.#stream.addField(sourceId, checked, fieldIds, fieldLength);
      if (fieldIds.length > FIELD_SCRATCH_KEPT) fieldIds = new Int32Array(64);
    }
  }

  /**
   * The first source of rank `minRank` or more that contains `value` (as whole
   * tokens of text, or as a complete field) and that `accept` takes; it stops
   * there. When there is none, `seenIn` names some source that contains the
   * value anyway, or is `undefined` when no source does.
   */
  vouch(
    value: string,
    accept: (sourceId: number) => boolean = () => true,
    minRank = 0,
  ): { readonly sourceId: number | undefined; readonly seenIn: number | undefined } {
    const ids = this.#lookupIds(value);
    if (!ids) return { sourceId: undefined, seenIn: undefined };
    for (let rank = MAX_RANK; rank >= minRank; rank--) {
      const found = this.#first(ids, rank, accept);
      if (found !== undefined) return { sourceId: found, seenIn: found };
    }
    for (let rank = MAX_RANK; rank >= 0; rank--) {
      const found = this.#first(ids, rank, () => true);
      if (found !== undefined) return { sourceId: undefined, seenIn: found };
    }
    return { sourceId: undefined, seenIn: undefined };
  }

  /**
   * The sources that contain `value`, lazily and each once, strongest rank first: take as many as an explanation
   * names (`[...take(index.sources(v), 3)]`) without paying for every source a recurring value is in.
   */
  *sources(value: string, minRank = 0): Generator<number> {
    const ids = this.#lookupIds(value);
    if (!ids) return;
    const seen = new Set<number>();
    for (let rank = MAX_RANK; rank >= minRank; rank--) {
      for (const stream of this.#lineage) {
        for (const source of stream.sources(ids, rank)) {
          if (seen.has(source)) continue;
          seen.add(source);
          yield source;
        }
      }
    }
  }

  /** Every source that contains `value` as whole tokens (text) or as a complete field, in id order. */
  find(value: string): EvidenceMatch[] {
    const ids = this.#lookupIds(value);
    if (!ids) return [];
    const matches = new Map<number, MatchKind>();
    for (const stream of this.#lineage) stream.collect(ids, matches);
    return [...matches].map(([sourceId, kind]) => ({ sourceId, kind })).sort((a, b) => a.sourceId - b.sourceId);
  }

  #first(ids: Int32Array, rank: number, accept: (sourceId: number) => boolean): number | undefined {
    for (const stream of this.#lineage) {
      const found = stream.first(ids, rank, accept);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /**
   * The value's token ids, or `undefined` when it has no tokens or a token no source ever had. One decision asks
   * about the same value several times (vouch, then name the sources), and the next decisions often ask again: the
   * last few answers are remembered; ids once found never change, and "never seen" holds until a token is interned.
   */
  #lookupIds(value: string): Int32Array | undefined {
    if (value.length > LOOKUP_MAX_LENGTH) return this.#readIds(value);
    const size = this.#tokenIds.size;
    const known = this.#lookups.get(value);
    if (typeof known === "object") return known;
    if (known === size) return undefined;
    const ids = this.#readIds(value);
    if (this.#lookups.size >= LOOKUPS_KEPT) this.#lookups.clear();
    this.#lookups.set(ownCopy(value), ids ?? size);
    return ids;
  }

  #readIds(value: string): Int32Array | undefined {
    const words = tokenize(value);
    if (!words.length) return undefined;
    const ids = new Int32Array(words.length);
    for (let i = 0; i < words.length; i++) {
      const id = this.#tokenIds.get(words[i]);
      if (id === undefined) return undefined;
      ids[i] = id;
    }
    return ids;
  }
}

/**
 * Where the two sinks below write: set by `#scan` before each scan, and by `addFields` (`writingStream` null: a field
 * value's ids go to a scratch list); scans never nest. Every index shares the same two functions, so the scanner's
 * calls to them stay monomorphic however many indexes a process makes.
 */
const NO_TABLE = new TokenTable();
const NO_STREAM = new TokenStream();
let writingTable = NO_TABLE;
let writingStream: TokenStream | null = NO_STREAM;

function pushToken(token: string): void {
  pushId(writingTable.intern(token, TokenStream.MAX_TOKENS));
}

function pushPlain(folded: string, start: number, end: number, hash: number, head?: string): void {
  pushId(writingTable.internPlainWord(folded, start, end, hash, TokenStream.MAX_TOKENS, head));
}

/** The token ids of the field value being scanned (see `addFields`): a scratch list, at most this long when idle. */
let fieldIds = new Int32Array(64);
let fieldLength = 0;
const FIELD_SCRATCH_KEPT = 4096;

function pushId(id: number): void {
  if (writingStream) return writingStream.push(id);
  if (fieldLength === fieldIds.length) {
    const longer = new Int32Array(fieldIds.length * 2);
    longer.set(fieldIds);
    fieldIds = longer;
  }
  fieldIds[fieldLength++] = id;
}

function checkRank(rank: number): number {
  if (!Number.isInteger(rank) || rank < 0 || rank > MAX_RANK) {
    throw new RangeError(`Cannot index a source of rank ${rank}: ranks are whole numbers from 0 to ${MAX_RANK}`);
  }
  return rank;
}
