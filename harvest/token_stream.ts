/**
 * The flat store behind `EvidenceIndex`: one stream of interned token ids for
 * every source, a chain from each text position to the previous position of
 * the same token and rank, and a chain from each field to the previous field
 * with the same hash and rank. Two 32-bit integers per token; no per-source
 * arrays, no posting lists.
 *
 * @module
 */

const TEXT_START = -1;
const FIELD_START = -2;
const RANKS = 16;

/** Where values were seen, as chains through one token stream (see the module doc). */
export class TokenStream {
  /** Token ids must stay below this, so that a token and a rank make one small-integer key. */
  static readonly MAX_TOKENS: number = 2 ** 26;
  #tokens = new Int32Array(1024);
  #prev = new Int32Array(1024);
  #length = 0;
  /** Per rank, token id -> slot + 1 (0: none); a slot holds the chain's head and its length. */
  #slotOf: Int32Array<ArrayBuffer>[] = [];
  #slotCount = 0;
  #heads = new Int32Array(256);
  #counts = new Int32Array(256);
  #fieldHeads = new Map<number, number>();
  /** Regions of the stream by source and rank, in stream order: [start, sourceId, rank, ...]. */
  #chunks: number[] = [];
  #ranks = 0;
  #rank = 0;

  /** Start a chunk of free text; its tokens follow with {@linkcode TokenStream.push}. */
  startText(sourceId: number, rank: number): void {
    this.#reserve(1);
    this.#open(sourceId, rank);
    this.#tokens[this.#length] = TEXT_START;
    this.#prev[this.#length++] = -1;
    this.#rank = rank;
  }

  /** Append one token to the chunk of text started last. */
  push(id: number): void {
    if (this.#length === this.#tokens.length) this.#reserve(1);
    const at = this.#length++;
    const slot = this.#slot(id, this.#rank);
    this.#tokens[at] = id;
    this.#prev[at] = this.#heads[slot];
    this.#heads[slot] = at;
    this.#counts[slot]++;
  }

  /** Append one complete field. */
  addField(sourceId: number, rank: number, ids: Int32Array): void {
    this.#reserve(ids.length + 1);
    this.#open(sourceId, rank);
    let at = this.#length;
    this.#tokens[at] = FIELD_START;
    this.#prev[at++] = -1;
    const key = fieldKey(ids, rank);
    this.#prev[at] = this.#fieldHeads.get(key) ?? -1;
    this.#fieldHeads.set(key, at);
    this.#tokens.set(ids, at);
    for (let i = 1; i < ids.length; i++) this.#prev[at + i] = -1;
    this.#length = at + ids.length;
  }

  /** The first source of exactly `rank` that contains `ids` and that `accept` takes. */
  first(ids: Int32Array, rank: number, accept: (sourceId: number) => boolean): number | undefined {
    if (!(this.#ranks & (1 << rank))) return undefined;
    for (let at = this.#fieldHeads.get(fieldKey(ids, rank)) ?? -1; at >= 0; at = this.#prev[at]) {
      if (this.#isField(at, ids)) {
        const source = this.#sourceAt(at);
        if (accept(source)) return source;
      }
    }
    const [anchor, head] = this.#anchor(ids, rank);
    for (let at = head; at >= 0; at = this.#prev[at]) {
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
    for (let at = this.#fieldHeads.get(fieldKey(ids, rank)) ?? -1; at >= 0; at = this.#prev[at]) {
      if (this.#isField(at, ids)) yield this.#sourceAt(at);
    }
    const [anchor, head] = this.#anchor(ids, rank);
    for (let at = head; at >= 0; at = this.#prev[at]) {
      if (this.#isRun(at - anchor, ids)) yield this.#sourceAt(at - anchor);
    }
  }

  /** Add every source that contains `ids` to `matches` (a field match is kept over a text match). */
  collect(ids: Int32Array, matches: Map<number, "text" | "field">): void {
    for (let rank = 0; rank < RANKS; rank++) {
      if (!(this.#ranks & (1 << rank))) continue;
      for (let at = this.#fieldHeads.get(fieldKey(ids, rank)) ?? -1; at >= 0; at = this.#prev[at]) {
        if (this.#isField(at, ids)) matches.set(this.#sourceAt(at), "field");
      }
    }
    for (let rank = 0; rank < RANKS; rank++) {
      if (!(this.#ranks & (1 << rank))) continue;
      const [anchor, head] = this.#anchor(ids, rank);
      for (let at = head; at >= 0; at = this.#prev[at]) {
        const start = at - anchor;
        if (!this.#isRun(start, ids)) continue;
        const source = this.#sourceAt(start);
        if (!matches.has(source)) matches.set(source, "text");
      }
    }
  }

  /** The position in `ids` of its rarest token at `rank`, and the head of that token's chain (-1: none). */
  #anchor(ids: Int32Array, rank: number): [number, number] {
    let best = -1;
    let fewest = Infinity;
    let bestSlot = -1;
    const slotOf = this.#slotOf[rank];
    if (slotOf === undefined) return [0, -1];
    for (let i = 0; i < ids.length; i++) {
      const slot = ids[i] < slotOf.length ? slotOf[ids[i]] - 1 : -1;
      if (slot < 0) return [0, -1];
      if (this.#counts[slot] < fewest) [fewest, best, bestSlot] = [this.#counts[slot], i, slot];
    }
    return [best, this.#heads[bestSlot]];
  }

  #isRun(start: number, ids: Int32Array): boolean {
    if (start < 0 || start + ids.length > this.#length) return false;
    for (let k = 0; k < ids.length; k++) if (this.#tokens[start + k] !== ids[k]) return false;
    return true;
  }

  #isField(at: number, ids: Int32Array): boolean {
    const end = at + ids.length;
    return this.#tokens[at - 1] === FIELD_START && this.#isRun(at, ids) &&
      (end === this.#length || this.#tokens[end] < 0);
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

  #slot(id: number, rank: number): number {
    let slotOf = this.#slotOf[rank];
    if (slotOf === undefined || id >= slotOf.length) {
      slotOf = this.#slotOf[rank] = grow(slotOf ?? new Int32Array(0), id + 1);
    }
    let slot = slotOf[id] - 1;
    if (slot < 0) {
      slot = this.#slotCount++;
      slotOf[id] = slot + 1;
      if (slot >= this.#heads.length) {
        this.#heads = grow(this.#heads, slot + 1);
        this.#counts = grow(this.#counts, slot + 1);
      }
      this.#heads[slot] = -1;
    }
    return slot;
  }

  #reserve(extra: number): void {
    const needed = this.#length + extra;
    if (needed <= this.#tokens.length) return;
    this.#tokens = grow(this.#tokens, needed);
    this.#prev = grow(this.#prev, needed);
  }
}

function grow(array: Int32Array<ArrayBuffer>, needed: number): Int32Array<ArrayBuffer> {
  let size = Math.max(array.length, 16);
  while (size < needed) size = Math.ceil(size * 1.5);
  const bigger = new Int32Array(size);
  bigger.set(array);
  return bigger;
}

/** FNV-1a over the ids, folded to 26 bits and combined with the rank (a small integer key). */
function fieldKey(ids: Int32Array, rank: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < ids.length; i++) hash = Math.imul(hash ^ ids[i], 0x01000193);
  return ((hash >>> 6) & 0x3ffffff) * RANKS + rank;
}
