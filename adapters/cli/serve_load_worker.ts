/**
 * The load of `pab bench serve` in a worker thread: the client's HTTP and
 * JSON run beside the server (as a real client would, in its own process),
 * not on the server's thread. It takes `{base, load}`, posts `{tick}` every
 * second and `{result}` (or `{error}`) at the end.
 *
 * @module
 */
import { loadServer, type ServeLoad } from "./serve_load.ts";

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<{ base: string; load: ServeLoad }>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = async (event) => {
  try {
    const result = await loadServer(event.data.base, {
      ...event.data.load,
      onTick: (decisions) => scope.postMessage({ tick: decisions }),
    });
    scope.postMessage({ result });
  } catch (error) {
    scope.postMessage({ error: String((error as Error)?.message ?? error) });
  }
};
