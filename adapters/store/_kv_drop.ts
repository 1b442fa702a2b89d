/**
 * Drop what a deleted session recorded from Deno KV: its inputs, its spent
 * rulings, and its record unless a reservation of it is still open (its audit
 * chain, its ledger's effects and its open reservations stay). Safe to repeat.
 */
export async function dropSession(kv: Deno.Kv, id: string): Promise<void> {
  const open = await kv.list({ prefix: ["pab", "res", id] }, { limit: 1 }).next();
  const keys: Deno.KvKey[] = open.done ? [["pab", "session", id]] : [];
  for (const prefix of [["pab", "in", id], ["pab", "spent", id]]) {
    for await (const entry of kv.list({ prefix }, { batchSize: 500 })) keys.push(entry.key);
  }
  // In commits of at most 500 mutations (Deno KV's limit is 1,000).
  for (let first = 0; first < keys.length; first += 500) {
    const operation = kv.atomic();
    for (const key of keys.slice(first, first + 500)) operation.delete(key);
    await operation.commit();
  }
}
