import { rowRecordText } from "./_kv_row_record.ts";
import { InputTexts } from "./_kv_shared.ts";
import { setText, type SharedPiece, type TextPart } from "./_kv_text.ts";
import { StoreError } from "./store_error.ts";

/** UTF-16 units of records written whole again per commit. */
const WHOLE_UNITS = 200_000;

/**
 * Drop what a deleted session recorded from Deno KV: its inputs, its spent
 * rulings, and its record unless a reservation of it is still open (its audit
 * chain, its ledger's effects and its open reservations stay). The audit
 * records that share text with the inputs, or are kept in their rows, are
 * first written whole into the chain's own rows.
 * Safe to repeat.
 */
export async function dropSession(kv: Deno.Kv, id: string): Promise<void> {
  const open = await kv.list({ prefix: ["pab", "res", id] }, { limit: 1 }).next();
  const keys: Deno.KvKey[] = open.done ? [["pab", "session", id]] : [];
  for (const prefix of [["pab", "in", id], ["pab", "spent", id]]) {
    for await (const entry of kv.list({ prefix }, { batchSize: 500 })) keys.push(entry.key);
  }
  // After the inputs are listed: a record sharing one of them was written with it, so it is listed here.
  await keepRecordsWhole(kv, id);
  // In commits of at most 500 mutations (Deno KV's limit is 1,000).
  for (let first = 0; first < keys.length; first += 500) {
    const operation = kv.atomic();
    for (const key of keys.slice(first, first + 500)) operation.delete(key);
    await operation.commit();
  }
}

/**
 * Write every audit record of a session that shares text with an input, or
 * is kept in an input's row, whole into the chain's own rows, each checked
 * unchanged (a record kept in a row is then in both, the same text, until the
 * row is dropped).
 */
async function keepRecordsWhole(kv: Deno.Kv, id: string): Promise<void> {
  const inputs = new InputTexts(kv);
  const records: {
    readonly entry: Deno.KvEntry<TextPart>;
    readonly key: Deno.KvKey;
    readonly text: () => Promise<string>;
  }[] = [];
  for await (const entry of kv.list<TextPart>({ prefix: ["pab", "audit", id] }, { batchSize: 500 })) {
    const part = entry.value;
    if (part.shared) {
      const text = () => inputs.whole(entry.key, part as TextPart & { shared: SharedPiece });
      records.push({ entry, key: entry.key.slice(0, -1), text });
    }
  }
  for await (const entry of kv.list<TextPart>({ prefix: ["pab", "in", id] }, { batchSize: 500 })) {
    const text = rowRecordText(entry.key, entry.value);
    if (text !== undefined) {
      records.push({ entry, key: ["pab", "audit", id, entry.value.record!.seq], text: () => Promise.resolve(text) });
    }
  }
  let operation = kv.atomic();
  let units = 0;
  let checks = 0;
  const commit = async () => {
    if (!(await operation.commit()).ok) {
      throw new StoreError(
        "ERR_STORE_WRITE",
        `Cannot drop the inputs of session "${id}": its audit records changed meanwhile (retry the deletion)`,
      );
    }
    operation = kv.atomic();
    units = 0;
    checks = 0;
  };
  for (const { entry, key, text: read } of records) {
    const text = await read();
    // Up to 3 bytes a unit: a commit stays under Deno KV's 800 KB (a text over 90,000 units goes to a blob first)
    // and 100 checks.
    if (units && (units + Math.min(text.length, 90_000) > WHOLE_UNITS || checks === 90)) await commit();
    await setText(kv, operation.check(entry), key, text);
    units += Math.min(text.length, 90_000);
    checks++;
  }
  if (units) await commit();
}
