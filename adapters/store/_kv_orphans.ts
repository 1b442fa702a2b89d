// Effect keys reserved and claimed by nobody: their holder has no hold and no open reservation record, so nobody has an
// id to finish them and they would stay reserved for good (a `once` tool
// denied "until the call that holds it completes", which never comes). This version never leaves one: keys are
// reserved with their hold in one write, the hold turns into the reservation record in one write, and a finish
// changes the keys and deletes the record in one write. A store written by an earlier pab can hold them (a crash
// between reserving and saving the record, issue 18), and so can a store edited by hand. They are released where they
// are met: when a reservation fails on them (a sweep at every open would read every effect of the store, committed
// ones included, in every hook process).
import { getAll, partText, type TextPart } from "./_kv_text.ts";
import { type EffectEntry, effectKey, type HoldEntry, holdKey } from "./_kv_effect_keys.ts";
import type { ReservationRecord } from "./pab_store.ts";
import { parseJson } from "../json/mod.ts";

/**
 * Release the keys of `ledger` among `keys` that are reserved by a holder
 * with no hold and no open reservation record; returns how many. (A holder
 * that has either keeps every key it reserved: holders are unique per call,
 * and a live one finishes or is repaired as a whole.) Safe while other processes work: the keys are
 * read first, then the holds and the records, and a key is released only
 * with a check that it is unchanged since it was read. (A key read while its
 * hold was there and whose hold was gone when read is named by the record
 * that replaced the hold in the same write; a finish changes its keys in the
 * same write that deletes its record.) A record that cannot be read may
 * claim any key: then none is released.
 */
export async function releaseUnclaimed(kv: Deno.Kv, ledger: string, keys: readonly string[]): Promise<number> {
  const suspects = (await getAll<EffectEntry>(kv, keys.map((key) => effectKey(ledger, key))))
    .filter((entry): entry is Deno.KvEntry<EffectEntry> =>
      entry.versionstamp !== null && entry.value?.state !== "committed"
    );
  if (!suspects.length) return 0;
  const live = await liveHolders(kv, ledger, [...new Set(suspects.map((entry) => String(entry.value?.holder)))]);
  if (!live) return 0;
  let released = 0;
  for (const entry of suspects) {
    if (live.has(String(entry.value?.holder))) continue;
    if ((await kv.atomic().check(entry).delete(entry.key).commit()).ok) released++;
  }
  return released;
}

/** The holders among `holders` with a hold, and every holder of an open reservation; undefined if a record cannot be read. */
async function liveHolders(kv: Deno.Kv, ledger: string, holders: readonly string[]): Promise<Set<string> | undefined> {
  const live = new Set<string>();
  for (const hold of await getAll<HoldEntry>(kv, holders.map((holder) => holdKey(ledger, holder)))) {
    if (hold.versionstamp !== null) live.add(String(hold.key[3]));
  }
  if (holders.every((holder) => live.has(holder))) return live;
  // A record's parts sit under ["pab", "res", session, id, part], in order; open reservations are few.
  let unreadable = false;
  let parts: string[] = [];
  let place = "";
  const flush = () => {
    if (!parts.length) return;
    try {
      live.add((parseJson(parts.join("")) as ReservationRecord).holder);
    } catch {
      unreadable = true;
    }
    parts = [];
  };
  for await (const entry of kv.list<TextPart>({ prefix: ["pab", "res"] })) {
    const here = JSON.stringify(entry.key.slice(2, 4));
    if (here !== place) flush();
    place = here;
    try {
      parts.push(await partText(kv, entry.value));
    } catch {
      unreadable = true;
    }
  }
  flush();
  return unreadable ? undefined : live;
}
