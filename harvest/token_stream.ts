/**
 * The flat store behind `EvidenceIndex`: one stream of interned token ids for
 * every source, a chain from each text position to the previous position of
 * the same token and rank, and a chain from each field to the previous field
 * with the same hash and rank. No per-source arrays, no posting lists.
 *
 * Both (token ids, and distances back along the chains) live in
 * `CompactPairs`: five bytes per token, in fixed blocks that are never copied
 * as the stream grows, so a 50 MB trace costs its five bytes per token and at
 * most one block of slack.
 *
 * @module
 */

import { CompactPairs } from "./compact_pairs.ts";
import { PositionMap } from "./position_map.ts";
import { growArray } from "./grow_array.ts";

const TEXT_START = -1;
const FIELD_START = -2;
const RANKS = 16;
const NO_CHAIN: Int32Array<ArrayBuffer> = new Int32Array(0);

/** Where values were seen, as chains through one token stream (see the module doc). */
export class TokenStream {
  /** Token ids must stay below this, so that a token and a rank make one small-integer key. */
  static readonly MAX_TOKENS: number = 2 ** 26;
  /**
   * By position: the token id plus two (so that the markers -2 and -1 are 0 and 1), and how far back the previous
   * position of the same chain is (0: none).
   */
  readonly #cells = new CompactPairs();
  #length = 0;
  /**
   * Per rank, for token id `id`: at `2 * id` the last position of that token plus one (0: none), and at `2 * id + 1`
   * how many positions its chain has (side by side: one place to read and write per token pushed).
   */
  readonly #chainsByRank: Int32Array<ArrayBuffer>[] = [];
  /** The chains of the rank of the text started last. */
  #chains = NO_CHAIN;
  /** Per field key (see `fieldKey`), the position of the last field with that key. */
  readonly #fieldHeads = new PositionMap();
  /** Regions of the stream by source and rank, in stream order: [start, sourceId, rank, ...]. */
  #chunks: number[] = [];
  #ranks = 0;
  #rank = 0;

  /** How many positions the stream holds. */
  get length(): number {
    return this.#length;
  }

  /** The tokens at positions `start` to the end (a copy). */
  tokensFrom(start: number): number[] {
    const ids: number[] = [];
    for (let at = start; at < this.#length; at++) ids.push(this.#tokenAt(at));
    return ids;
  }

  /** Start a chunk of free text; its tokens follow with {@linkcode TokenStream.push}. */
  startText(sourceId: number, rank: number): void {
    this.#open(sourceId, rank);
    this.#append(TEXT_START, -1);
    this.#rank = rank;
    this.#chains = this.#chainsByRank[rank] ?? NO_CHAIN;
  }

  /** Append one token to the chunk of text started last. */
  push(id: number): void {
    const at = this.#length;
    if (id * 2 >= this.#chains.length) this.#growChains(id);
    const chains = this.#chains;
    const head = chains[id * 2];
    this.#cells.append(at, id + 2, head === 0 ? 0 : at + 1 - head);
    chains[id * 2] = at + 1;
    chains[id * 2 + 1]++;
    this.#length = at + 1;
  }

  /** Append one complete field: the first `length` ids of `ids` (at least one). */
  addField(sourceId: number, rank: number, ids: Int32Array, length: number = ids.length): void {
    this.#open(sourceId, rank);
    this.#append(FIELD_START, -1);
    const key = fieldKey(ids, rank, length);
    const at = this.#length;
    this.#append(ids[0], this.#fieldHeads.get(key));
    this.#fieldHeads.set(key, at);
    for (let i = 1; i < length; i++) this.#append(ids[i], -1);
  }

  /** The first source of exactly `rank` that contains `ids` and that `accept` takes. */
  first(ids: Int32Array, rank: number, accept: (sourceId: number) => boolean): number | undefined {
    if (!(this.#ranks & (1 << rank))) return undefined;
    for (let at = this.#fieldHeads.get(fieldKey(ids, rank)); at >= 0; at = this.#prevAt(at)) {
      if (this.#isField(at, ids)) {
        const source = this.#sourceAt(at);
        if (accept(source)) return source;
      }
    }
    const [anchor, head] = this.#anchor(ids, rank);
    for (let at = head; at >= 0; at = this.#prevAt(at)) {
      const start = at - anchor;
      if (this.#isRun(start, ids)) {
        const source = this.#sourceAt(start);
        if (accept(source)) return source;
      }
    }
    return undefined;
  }

  /** Every source of exactly `rank` that contains `ids`, lazily, most recent first (a source may repeat). */
  *sources(ids: Int32Array, rank: number): Generator<number> {
    if (!(this.#ranks & (1 << rank))) return;
    for (let at = this.#fieldHeads.get(fieldKey(ids, rank)); at >= 0; at = this.#prevAt(at)) {
      if (this.#isField(at, ids)) yield this.#sourceAt(at);
    }
    const [anchor, head] = this.#anchor(ids, rank);
    for (let at = head; at >= 0; at = this.#prevAt(at)) {
      if (this.#isRun(at - anchor, ids)) yield this.#sourceAt(at - anchor);
    }
  }

  /** Add every source that contains `ids` to `matches` (a field match is kept over a text match). */
  collect(ids: Int32Array, matches: Map<number, "text" | "field">): void {
    for (let rank = 0; rank < RANKS; rank++) {
      if (!(this.#ranks & (1 << rank))) continue;
      for (let at = this.#fieldHeads.get(fieldKey(ids, rank)); at >= 0; at = this.#prevAt(at)) {
        if (this.#isField(at, ids)) matches.set(this.#sourceAt(at), "field");
      }
    }
    for (let rank = 0; rank < RANKS; rank++) {
      if (!(this.#ranks & (1 << rank))) continue;
      const [anchor, head] = this.#anchor(ids, rank);
      for (let at = head; at >= 0; at = this.#prevAt(at)) {
        const start = at - anchor;
        if (!this.#isRun(start, ids)) continue;
        const source = this.#sourceAt(start);
        if (!matches.has(source)) matches.set(source, "text");
      }
    }
  }

  /** The position in `ids` of its rarest token at `rank`, and the head of that token's chain (-1: none). */
  #anchor(ids: Int32Array, rank: number): [number, number] {
    const chains = this.#chainsByRank[rank];
    if (chains === undefined) return [0, -1];
    let best = -1;
    let fewest = Infinity;
    for (let i = 0; i < ids.length; i++) {
      const count = ids[i] * 2 < chains.length ? chains[ids[i] * 2 + 1] : 0;
      if (count === 0) return [0, -1];
      if (count < fewest) [fewest, best] = [count, i];
    }
    return [best, chains[ids[best] * 2] - 1];
  }

  #tokenAt(at: number): number {
    return this.#cells.first(at) - 2;
  }

  #prevAt(at: number): number {
    const distance = this.#cells.second(at);
    return distance === 0 ? -1 : at - distance;
  }

  #isRun(start: number, ids: Int32Array): boolean {
    if (start < 0 || start + ids.length > this.#length) return false;
    for (let k = 0; k < ids.length; k++) if (this.#tokenAt(start + k) !== ids[k]) return false;
    return true;
  }

  #isField(at: number, ids: Int32Array): boolean {
    const end = at + ids.length;
    return at > 0 && this.#tokenAt(at - 1) === FIELD_START && this.#isRun(at, ids) &&
      (end === this.#length || this.#tokenAt(end) < 0);
  }

  #sourceAt(at: number): number {
    const chunks = this.#chunks;
    let low = 0;
    let high = chunks.length / 3 - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (chunks[middle * 3] <= at) low = middle;
      else high = middle - 1;
    }
    return chunks[low * 3 + 1];
  }

  #open(sourceId: number, rank: number): void {
    this.#ranks |= 1 << rank;
    const chunks = this.#chunks;
    const last = chunks.length - 3;
    if (last >= 0 && chunks[last + 1] === sourceId && chunks[last + 2] === rank) return;
    chunks.push(this.#length, sourceId, rank);
  }

  /** Append a position outside any token chain (a marker, or a field's token), chained to `prev` (-1: none). */
  #append(token: number, prev: number): void {
    const at = this.#length;
    this.#cells.append(at, token + 2, prev < 0 ? 0 : at - prev);
    this.#length = at + 1;
  }

  /** Make the current rank's chains long enough for token `id`. */
  #growChains(id: number): void {
    const old = this.#chainsByRank[this.#rank];
    let size = Math.max(old?.length ?? 0, 512);
    while (size <= id * 2 + 1) size *= 2;
    // The old chains' storage moves into the new ones (see `growArray`): a long session does not hold both.
    this.#chainsByRank[this.#rank] = this.#chains = old ? growArray(old, size) : new Int32Array(size);
  }
}

/** FNV-1a over the ids, folded to 26 bits and combined with the rank (a small integer key). */
function fieldKey(ids: Int32Array, rank: number, length: number = ids.length): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < length; i++) hash = Math.imul(hash ^ ids[i], 0x01000193);
  return ((hash >>> 6) & 0x3ffffff) * RANKS + rank;
}
