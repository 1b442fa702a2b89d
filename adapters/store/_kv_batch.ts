// Group commit for Deno KV: SQLite runs one commit at a time, and each costs about as much as 10 of the writes in it,
// so the steps that concurrent requests stage are committed together. Each step stays atomic: a group is one
// atomic(); steps whose keys meet are never in one group (one atomic() checks every key against the state before
// any of its writes, so two steps checking the same key could both pass); a group that fails (a check, a limit, a
// fault) writes nothing, and its steps are then committed one by one, each with its own checks and its own failure.

/** What a step adds to an atomic write: the subset of `Deno.AtomicOperation` the store uses. */
export interface KvMutations {
  /** Fail the write unless each key still has this versionstamp. */
  check(...checks: Deno.AtomicCheck[]): this;
  /** Set a key. */
  set(key: Deno.KvKey, value: unknown): this;
  /** Delete a key. */
  delete(key: Deno.KvKey): this;
}

/**
 * The expiry the rows of a local KV file get: 2^52 ms (about 142,700 years) ahead, so none ever expires (Deno KV
 * refuses one more than about 260,000 years ahead). Deno KV indexes every row by its expiry (SQLite's
 * `kv_expiration_ms_idx` on `(expiration_ms, key)`), and a row without one sits there at -1 in key order: a commit's
 * new rows are then spread over that index's pages (one place per session), each page dirtied (16 KiB written to the
 * WAL) for a few bytes. With a far expiry that grows with the clock, they all land at its end, on the page the commit's
 * other rows dirty too. Reads, checks and values are the same either way (an earlier pab reads such a row as it was
 * written).
 */
export const FAR_EXPIRY: { readonly expireIn: number } = { expireIn: 2 ** 52 };

// Deno KV allows 100 checks, 1,000 mutations and 800 KB of keys and values in one atomic().
const MAX_CHECKS = 100;
const MAX_MUTATIONS = 500;
const MAX_BYTES = 400_000;

/** One step's checks and writes, staged to be committed alone or with others. */
export class StagedWrite implements KvMutations {
  readonly checks: Deno.AtomicCheck[] = [];
  readonly mutations: { readonly key: Deno.KvKey; readonly value?: unknown; readonly remove: boolean }[] = [];
  readonly keys = new Set<string>();
  bytes = 0;

  check(...checks: Deno.AtomicCheck[]): this {
    for (const check of checks) {
      this.checks.push(check);
      this.#touch(check.key, 0);
    }
    return this;
  }

  set(key: Deno.KvKey, value: unknown): this {
    this.mutations.push({ key, value, remove: false });
    this.#touch(key, sizeOf(value));
    return this;
  }

  delete(key: Deno.KvKey): this {
    this.mutations.push({ key, remove: true });
    this.#touch(key, 0);
    return this;
  }

  /** Add this step to an atomic operation, the rows it sets given `expiry` (none when undefined). */
  addTo(operation: Deno.AtomicOperation, expiry?: { readonly expireIn: number }): void {
    operation.check(...this.checks);
    for (const mutation of this.mutations) {
      if (mutation.remove) operation.delete(mutation.key);
      else operation.set(mutation.key, mutation.value, expiry);
    }
  }

  #touch(key: Deno.KvKey, bytes: number): void {
    this.keys.add(keyText(key));
    this.bytes += keyBytes(key) + bytes;
  }
}

/**
 * A text naming `key` among the keys of staged writes: strings (each after its length) and numbers are told apart
 * exactly; a bigint and a byte array that print the same share a text, and then their writes are merely kept apart, as
 * if they met.
 */
function keyText(key: Deno.KvKey): string {
  let text = "";
  for (const part of key) {
    text += typeof part === "string"
      ? `${part.length}"${part}`
      : typeof part === "number"
      ? `#${part}`
      : `?${String(part)}`;
  }
  return text;
}

/** About the bytes of a key in a commit, as its JSON counts them (a part of UTF-16 units and its quotes and comma). */
function keyBytes(key: Deno.KvKey): number {
  let bytes = 1;
  for (const part of key) bytes += (typeof part === "string" ? part.length + 2 : String(part).length) + 1;
  return bytes;
}

/** An upper bound of a value's stored size without copying its text (a stored text part is `{count, text}`). */
function sizeOf(value: unknown): number {
  if (typeof value === "string") return value.length * 3 + 8;
  const part = value as
    | { text?: unknown; shared?: { after?: unknown }; record?: { text?: unknown; after?: unknown } }
    | null;
  if (typeof part?.text === "string") {
    const units = part.text.length + length(part.shared?.after) + length(part.record?.text) +
      length(part.record?.after);
    return units * 3 + 256;
  }
  return (JSON.stringify(value, (_, part) => typeof part === "bigint" ? String(part) : part)?.length ?? 8) * 3;
}

function length(text: unknown): number {
  return typeof text === "string" ? text.length : 0;
}

interface Waiting {
  readonly write: StagedWrite;
  readonly resolve: (versionstamp: string | null) => void;
  readonly reject: (error: unknown) => void;
}

/** Commits staged writes, grouping those that wait together. */
export class GroupCommitter {
  readonly #kv: Deno.Kv;
  readonly #expiry: { readonly expireIn: number } | undefined;
  #queue: Waiting[] = [];
  #running = false;

  /** Commit to `kv`, rows set with `expiry` (such as {@linkcode FAR_EXPIRY}) when given. */
  constructor(kv: Deno.Kv, expiry?: { readonly expireIn: number }) {
    this.#kv = kv;
    this.#expiry = expiry;
  }

  /** Commit `write` (alone or with others): the versionstamp it was written at, or null when one of its checks failed. */
  commit(write: StagedWrite): Promise<string | null> {
    return new Promise<string | null>((resolve, reject) => {
      this.#queue.push({ write, resolve, reject });
      if (!this.#running) {
        this.#running = true;
        // Let the requests of this turn stage their writes first.
        queueMicrotask(() => void this.#drain());
      }
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length) await this.#commitGroup(this.#takeGroup());
    } finally {
      this.#running = false;
    }
  }

  /** The first waiting writes that fit one atomic() and share no key, in order. */
  #takeGroup(): Waiting[] {
    const group: Waiting[] = [];
    const rest: Waiting[] = [];
    const keys = new Set<string>();
    let checks = 0, mutations = 0, bytes = 0;
    for (const waiting of this.#queue) {
      const { write } = waiting;
      const fits = checks + write.checks.length <= MAX_CHECKS && mutations + write.mutations.length <= MAX_MUTATIONS &&
        bytes + write.bytes <= MAX_BYTES && ![...write.keys].some((key) => keys.has(key));
      if (group.length && (!fits || rest.length)) {
        // Order is kept: once a write waits for the next group, every later one does too.
        rest.push(waiting);
        continue;
      }
      group.push(waiting);
      for (const key of write.keys) keys.add(key);
      checks += write.checks.length;
      mutations += write.mutations.length;
      bytes += write.bytes;
    }
    this.#queue = rest;
    return group;
  }

  async #commitGroup(group: Waiting[]): Promise<void> {
    if (group.length > 1) {
      const operation = this.#kv.atomic();
      for (const { write } of group) write.addTo(operation, this.#expiry);
      const result = await operation.commit().catch(() => undefined);
      if (result?.ok) return group.forEach(({ resolve }) => resolve(result.versionstamp));
    }
    // Alone, or the group was refused: each write on its own checks, with its own failure.
    await Promise.all(group.map(async ({ write, resolve, reject }) => {
      try {
        const operation = this.#kv.atomic();
        write.addTo(operation, this.#expiry);
        const result = await operation.commit();
        resolve(result.ok ? result.versionstamp : null);
      } catch (error) {
        reject(error);
      }
    }));
  }
}
