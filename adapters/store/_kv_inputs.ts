import type { KvMutations } from "./_kv_batch.ts";
import type { ReadBatcher } from "./_kv_reads.ts";
import { Recent } from "./_kv_recent.ts";
import { type SharedSource, sharedSource } from "./_kv_shared.ts";
import type { InputRow } from "./_kv_row_record.ts";
import { listTexts, PART, setText } from "./_kv_text.ts";
import type { SessionInput } from "./pab_store.ts";
import { StoreError } from "./store_error.ts";
import { corruptValue, sessionInput } from "./_kv_values.ts";

/** The key of a session's input at `seq` (its text's parts are under it). */
export function inputKey(session: string, seq: number): Deno.KvKey {
  return ["pab", "in", session, seq];
}

/** An input added to a write: what its audit record may share with it, and its only part when it has one (not yet in the write). */
export interface StagedInput {
  /** The input's text and the piece an audit record of it may share. */
  readonly source?: SharedSource;
  /** The input's only part, for the caller to add to the write once its audit record has joined it (or not). */
  readonly row?: InputRow;
}

/**
 * A session's inputs in Deno KV, at positions 0, 1, 2, ... with no gap: an
 * input is written only where none is, and only after the one before it
 * (each append checks both in its atomic write). So a session has no input
 * past an empty position, and reading what others appended since `from` is
 * one point read, batched with other sessions' reads, when there is nothing.
 */
export class KvInputs {
  readonly #kv: Deno.Kv;
  readonly #reads: ReadBatcher;
  /** The last input this process wrote or read, by session: its position and the versionstamp of its first part. */
  readonly #last = new Recent<{ readonly seq: number; readonly versionstamp: string }>(10_000);
  /** The appends of this process in flight, by session and position (an append after one waits for it). */
  readonly #pending = new Map<string, Promise<unknown>>();

  constructor(kv: Deno.Kv, reads: ReadBatcher) {
    this.#kv = kv;
    this.#reads = reads;
  }

  /**
   * Add the input at `seq` to an atomic write, checked to go where none is
   * and after the input before it; returns what its audit record may share
   * with it and, for a text that fits one part, that part, which the caller
   * must add to the write. Fails `ERR_STORE_WRITE` when the input before it
   * is not in the store (the session's inputs were dropped).
   */
  async add(
    operation: KvMutations,
    session: string,
    seq: number,
    input: SessionInput,
  ): Promise<StagedInput> {
    if (seq > 0) {
      // This process may be appending the input before it: that append lands (or fails) first.
      const earlier = this.#pending.get(pendingName(session, seq - 1));
      if (earlier) await earlier;
      const known = this.#last.get(session);
      const key = [...inputKey(session, seq - 1), 0];
      const before = known?.seq === seq - 1 ? { key, versionstamp: known.versionstamp } : await this.#kv.get(key);
      if (before.versionstamp === null) {
        throw new StoreError(
          "ERR_STORE_WRITE",
          `Cannot append input ${seq} of session "${session}": input ${seq - 1} is not in the store ` +
            `(the session's inputs were dropped; make a new session)`,
        );
      }
      operation.check(before);
    }
    const text = JSON.stringify(input);
    const slot = { key: [...inputKey(session, seq), 0], versionstamp: null };
    operation.check(slot);
    const source = sharedSource(seq, input, text);
    if (text.length <= PART) {
      return { ...(source ? { source } : {}), row: { key: slot.key, value: { count: 1, text } } };
    }
    await setText(this.#kv, operation, inputKey(session, seq), text);
    return source ? { source } : {};
  }

  /** Run `append` (an append at `seq`), known as in flight while it runs. */
  async appending<T>(session: string, seq: number, append: () => Promise<T>): Promise<T> {
    const name = pendingName(session, seq);
    const running = append();
    const settled = Promise.allSettled([this.#pending.get(name), running]);
    this.#pending.set(name, settled);
    try {
      return await running;
    } finally {
      if (this.#pending.get(name) === settled) this.#pending.delete(name);
    }
  }

  /** Note the input at `seq` this process wrote at `versionstamp` (the next append checks it without reading it). */
  wrote(session: string, seq: number, versionstamp: string): void {
    this.#last.set(session, { seq, versionstamp });
  }

  /** Forget what this process wrote of a session (a write failed, or its inputs were dropped). */
  forget(session: string): void {
    this.#last.delete(session);
  }

  /** The inputs of a session from `from` on, in order. */
  async read(session: string, from: number): Promise<SessionInput[]> {
    if ((await this.#reads.get([...inputKey(session, from), 0])).versionstamp === null) return [];
    const prefix = ["pab", "in", session];
    const texts = await listTexts(this.#kv, { prefix, start: [...prefix, from] }, 3);
    // The last one read: the session's next append checks it is still there without reading it again.
    const last = texts.at(-1);
    if (last && typeof last.id === "number" && !((this.#last.get(session)?.seq ?? -1) > last.id)) {
      this.#last.set(session, { seq: last.id, versionstamp: last.versionstamp });
    }
    // Inputs sit at positions from, from + 1, ... with no gap: a gap or an id that is no position is damage.
    return texts.map((entry, i) => {
      const key = [...prefix, entry.id];
      if (entry.id !== from + i) throw corruptValue(key, `input ${from + i} is missing before it`);
      return sessionInput(key, entry.text);
    });
  }
}

function pendingName(session: string, seq: number): string {
  return `${seq} ${session}`;
}
