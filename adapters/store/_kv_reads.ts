// Batched point reads for Deno KV: every read is a hop to SQLite's thread and back, and costs about as much as
// several keys read together, so the point reads that concurrent requests make while a batch is out go to the store
// together, as getMany() calls of at most 10 keys. Each read still starts after its caller asked, so it sees every
// write committed before that.

const MANY = 10;
/** How long a batch may be out before the next one starts anyway (a stalled remote store holds no later read). */
const STALL_MS = 50;

interface Waiting {
  readonly key: Deno.KvKey;
  readonly resolve: (entry: Deno.KvEntryMaybe<unknown>) => void;
  readonly reject: (error: unknown) => void;
}

/** Reads keys, grouping the reads that wait together. */
export class ReadBatcher {
  readonly #kv: Deno.Kv;
  #queue: Waiting[] = [];
  #running = false;

  constructor(kv: Deno.Kv) {
    this.#kv = kv;
  }

  /** The entry at `key`, read with the keys other callers asked for meanwhile. */
  get<T>(key: Deno.KvKey): Promise<Deno.KvEntryMaybe<T>> {
    return new Promise<Deno.KvEntryMaybe<T>>((resolve, reject) => {
      this.#queue.push({ key, resolve: resolve as Waiting["resolve"], reject });
      if (!this.#running) {
        this.#running = true;
        // Let the requests of this turn ask first.
        queueMicrotask(() => void this.#drain());
      }
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length) {
        const batch = this.#queue;
        this.#queue = [];
        const round = Promise.all(Array.from(
          { length: Math.ceil(batch.length / MANY) },
          (_, i) => this.#read(batch.slice(i * MANY, (i + 1) * MANY)),
        ));
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([round, new Promise((resolve) => timer = setTimeout(resolve, STALL_MS))]);
        clearTimeout(timer);
      }
    } finally {
      this.#running = false;
    }
  }

  async #read(batch: readonly Waiting[]): Promise<void> {
    try {
      const entries = await this.#kv.getMany(batch.map((waiting) => waiting.key));
      batch.forEach((waiting, i) => waiting.resolve(entries[i]));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    }
  }
}
