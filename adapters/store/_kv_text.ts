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

/** Read many keys (Deno KV reads at most 10 at a time). */
export async function getAll<T>(kv: Deno.Kv, keys: readonly Deno.KvKey[]): Promise<Deno.KvEntryMaybe<T>[]> {
  const entries: Deno.KvEntryMaybe<T>[] = [];
  for (let i = 0; i < keys.length; i += 10) entries.push(...await kv.getMany<T[]>(keys.slice(i, i + 10)));
  return entries;
}
