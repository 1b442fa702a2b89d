/**
 * A listening worker's lines to the other workers: a request whose session
 * another worker holds is handed to it over a `MessagePort` (its body's
 * buffer transferred, not copied) and its answer comes back the same way; the
 * requests others hand to this worker are answered here. When a worker is
 * lost, what was handed to it, and anything handed later, answers 500
 * `ERR_INTERNAL` at once: never a request that waits for good.
 *
 * @module
 */
import type { AdmittedRequest, TextAnswer } from "./request_intake.ts";
import type { PeerMessage, WorkerAnswer, WorkerRequest } from "./worker_protocol.ts";

const LOST_BODY = '{"error":{"code":"ERR_INTERNAL","message":"pab failed unexpectedly: a worker thread stopped"}}';

/** The answer to a request whose worker stopped. */
export const LOST_ANSWER: TextAnswer = Object.freeze({ status: 500, body: LOST_BODY });

/** Ports to the other workers, by index (`null` at this worker's own). */
export class WorkerPeers {
  readonly #ports: readonly (MessagePort | null)[];
  readonly #pending = new Map<number, { peer: number; settle: (answer: TextAnswer) => void }>();
  readonly #lost = new Set<number>();
  #next = 0;

  /** Lines over `ports`; requests handed to this worker are answered with `serve`. */
  constructor(ports: readonly (MessagePort | null)[], serve: (request: AdmittedRequest) => Promise<TextAnswer>) {
    this.#ports = ports;
    ports.forEach((port) => {
      if (port === null) return;
      port.onmessage = async (event: MessageEvent<PeerMessage>) => {
        const message = event.data;
        if (message.kind === "answer") {
          const pending = this.#pending.get(message.id);
          this.#pending.delete(message.id);
          pending?.settle(message);
        } else {
          const answer: WorkerAnswer = { kind: "answer", id: message.id, ...await serve(message) };
          port.postMessage(answer);
        }
      };
    });
  }

  /** Hand `request` to worker `peer`; settles with its answer. */
  ask(peer: number, request: AdmittedRequest): Promise<TextAnswer> {
    const port = this.#ports[peer];
    if (!port || this.#lost.has(peer)) return Promise.resolve(LOST_ANSWER);
    const id = this.#next++;
    const message: WorkerRequest = { kind: "request", id, ...request };
    return new Promise((settle) => {
      this.#pending.set(id, { peer, settle });
      port.postMessage(message, bodyTransfer(request.body));
    });
  }

  /** Worker `peer` stopped: settle what it held, and refuse it from now on. */
  lose(peer: number): void {
    this.#lost.add(peer);
    for (const [id, pending] of this.#pending) {
      if (pending.peer !== peer) continue;
      this.#pending.delete(id);
      pending.settle(LOST_ANSWER);
    }
  }

  /** Close every port. */
  close(): void {
    for (const port of this.#ports) port?.close();
  }
}

/** The buffer to move with a body to another thread: its own when the body spans it whole (else it is copied). */
export function bodyTransfer(body: Uint8Array<ArrayBuffer> | null): Transferable[] {
  return body !== null && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? [body.buffer] : [];
}
