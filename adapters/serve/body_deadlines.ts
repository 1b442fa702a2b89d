/**
 * The deadline and the stop signal of the request bodies a server is
 * reading, kept together: one timer checks every read in progress (instead of
 * a timer and a listener for each request), and stopping the server cuts off
 * every one at once.
 *
 * @module
 */
import { RequestError } from "./request_error.ts";

/** One read being watched. */
export interface WatchedRead {
  /** Why the read was cut off, once it was (its `cancel` was called). */
  readonly error: RequestError | undefined;
  /** The read ended (whole or not): stop watching it. */
  done(): void;
}

/** A read being watched, as `watch` returns it: a plain instance (an object literal with a getter costs more to make). */
class Read implements WatchedRead {
  error: RequestError | undefined = undefined;
  readonly started: number;
  readonly cancel: () => void;
  readonly #done: (read: Read) => void;

  constructor(started: number, cancel: () => void, done: (read: Read) => void) {
    this.started = started;
    this.cancel = cancel;
    this.#done = done;
  }

  done(): void {
    this.#done(this);
  }
}

/**
 * Deadlines of body reads: each read may take `deadlineMs`; `signal` (the
 * server stopping) cuts off all of them. A read that runs over is cut off
 * within a quarter of the deadline (at most 250 ms) after it passes. With a
 * signal, the timer runs from the first read until it aborts; without one,
 * while reads are in progress.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BodyDeadlines } from "./body_deadlines.ts";
 * const deadlines = new BodyDeadlines(50);
 * const cut = Promise.withResolvers<void>();
 * const read = deadlines.watch(() => cut.resolve());
 * await cut.promise;
 * assert.equal(read.error?.code, "ERR_REQUEST_TIMEOUT");
 * read.done();
 * ```
 */
export class BodyDeadlines {
  readonly #deadlineMs: number;
  readonly #signal: AbortSignal | undefined;
  readonly #reads = new Set<Read>();
  #timer: ReturnType<typeof setInterval> | undefined;

  /** Deadlines of `deadlineMs` for each read, all cut off when `signal` aborts. */
  constructor(deadlineMs: number, signal?: AbortSignal) {
    this.#deadlineMs = deadlineMs;
    this.#signal = signal;
    signal?.addEventListener("abort", () => {
      for (const read of this.#reads) this.#cut(read, stopping());
      this.#idle();
    }, { once: true });
  }

  /** Watch one read: `cancel` is called (once) when it runs over or the server stops, and `error` says which. */
  watch(cancel: () => void): WatchedRead {
    const read = new Read(performance.now(), cancel, this.#release);
    if (this.#signal?.aborted) {
      read.error = stopping();
      cancel();
    } else {
      this.#reads.add(read);
      this.#timer ??= setInterval(() => this.#check(), Math.min(250, Math.max(1, this.#deadlineMs / 4)));
    }
    return read;
  }

  /** A read ended (whole or not): stop watching it. */
  readonly #release = (read: Read): void => {
    this.#reads.delete(read);
    this.#idle();
  };

  #check(): void {
    const cutoff = performance.now() - this.#deadlineMs;
    for (const read of this.#reads) {
      if (read.started > cutoff) continue;
      this.#cut(
        read,
        new RequestError("ERR_REQUEST_TIMEOUT", `Cannot read the request body: it took over ${this.#deadlineMs} ms`),
      );
    }
    this.#idle();
  }

  #cut(read: Read, error: RequestError): void {
    this.#reads.delete(read);
    read.error = error;
    read.cancel();
  }

  /** Stop the timer when no body is being read, unless a server's stop signal (not aborted yet) keeps it. */
  #idle(): void {
    if (this.#reads.size > 0 || this.#timer === undefined || this.#signal?.aborted === false) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

function stopping(): RequestError {
  return new RequestError("ERR_SHUTTING_DOWN", "Cannot read the request body: the server is stopping");
}
