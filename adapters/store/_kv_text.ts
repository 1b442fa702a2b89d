import { StoreError } from "./store_error.ts";

// Large JSON texts in Deno KV: a value may hold at most 64 KiB, so a text is
// kept in parts of at most PART UTF-16 units (at most 60 KB serialised) under
// [...key, 0], [...key, 1], ... and written in one atomic operation.
const PART = 30_000;

/** Add the parts of `text` under `key` to an atomic operation. */
export function setText(operation: Deno.AtomicOperation, key: Deno.KvKey, text: string): Deno.AtomicOperation {
  const count = Math.max(1, Math.ceil(text.length / PART));
  for (let i = 0; i < count; i++) {
    operation.set([...key, i], { count, text: text.slice(i * PART, (i + 1) * PART) });
  }
  return operation;
}

/** Join the parts listed under a prefix into texts, keyed by the key part after the prefix. */
export async function listTexts(
  kv: Deno.Kv,
  selector: Deno.KvListSelector,
  depth: number,
): Promise<{ readonly id: Deno.KvKeyPart; readonly text: string }[]> {
  const texts: { id: Deno.KvKeyPart; text: string }[] = [];
  let parts: string[] = [];
  let current: Deno.KvKeyPart | undefined;
  let expected = 0;
  for await (const entry of kv.list<{ count: number; text: string }>(selector)) {
    const id = entry.key[depth];
    if (current === undefined || id !== current) {
      if (current !== undefined && parts.length === expected) texts.push({ id: current, text: parts.join("") });
      current = id;
      parts = [];
      expected = entry.value.count;
    }
    parts.push(entry.value.text);
  }
  if (current !== undefined && parts.length === expected) texts.push({ id: current, text: parts.join("") });
  return texts;
}

/** Wait a little before retrying a conflicting write (jittered, growing with attempts). */
export function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 1 + attempt * 2)));
}

const BUSY = /database is locked|database table is locked|SQLITE_BUSY/i;
const BUSY_ATTEMPTS = 400;

/**
 * Run a KV task again while SQLite says another process holds the file's lock
 * (several processes may share one KV file). Each task must be safe to repeat:
 * an atomic commit that failed this way wrote nothing.
 */
export async function retryBusy<T>(task: () => Promise<T>): Promise<T> {
  for (let attempt = 0;; attempt++) {
    try {
      return await task();
    } catch (error) {
      if (!(error instanceof Error) || !BUSY.test(error.message)) throw error;
      if (attempt >= BUSY_ATTEMPTS) {
        throw new StoreError(
          "ERR_STORE_WRITE",
          `Cannot use the store: ${error.message} (another process kept it busy)`,
        );
      }
      await backoff(attempt);
    }
  }
}
