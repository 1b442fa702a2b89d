import type { KvGate } from "./_kv_gate.ts";
import type { StoreHealth } from "./pab_store.ts";
import { StoreError } from "./store_error.ts";

const META: Deno.KvKey = ["pab", "meta", "store"];

/** The store's mark (a random id under `["pab", "meta", "store"]`), written now if it has none. */
export async function markStore(kv: Deno.Kv): Promise<string> {
  const current = await kv.get<{ id: string }>(META);
  if (current.value) return current.value.id;
  const id = crypto.randomUUID();
  const made = await kv.atomic().check(current).set(META, { id, created: new Date().toISOString() }).commit();
  return made.ok ? id : (await kv.get<{ id: string }>(META)).value?.id ?? id;
}

/** Check that the store answers, bears `mark` (when known), and takes a write, within the gate's deadline. */
export async function probeStore(
  kv: Deno.Kv,
  gate: KvGate,
  description: string,
  mark: string | undefined,
): Promise<StoreHealth> {
  const started = performance.now();
  try {
    await gate.run("probe the store", async () => {
      const stamp = (await kv.get<{ id: string }>(META)).value?.id;
      if (mark !== undefined && stamp !== mark) {
        throw new StoreError(
          "ERR_STORE_GONE",
          `Cannot use store "${description}": it is not the store pab opened (its data was deleted or replaced; ` +
            `restore it, or restart pab)`,
        );
      }
      await kv.set(["pab", "meta", "probe"], Date.now());
    });
    return { ok: true, description, latencyMs: performance.now() - started };
  } catch (error) {
    const fault = gate.fault("probe the store", error);
    return { ok: false, description, code: fault.code, message: fault.message, retryAfter: fault.retryAfter };
  }
}
