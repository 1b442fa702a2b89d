import { backoff } from "./_kv_text.ts";
import { errorText } from "../../core/mod.ts";
import { StoreError, type StoreErrorCode } from "./store_error.ts";

/** How a KV call may fail, by the words SQLite, the file system or the KV client use (first match wins). */
const FAULTS: readonly (readonly [StoreErrorCode, RegExp, string])[] = [
  ["ERR_STORE_FULL", /disk is full|SQLITE_FULL|no space left|ENOSPC|quota exceeded/i, "free disk space, then retry"],
  [
    "ERR_STORE_READONLY",
    /readonly database|read-only|SQLITE_READONLY|EROFS|attempt to write/i,
    "make the store file and its folder writable",
  ],
  [
    "ERR_STORE_CORRUPT",
    /malformed|not a database|SQLITE_CORRUPT|SQLITE_NOTADB|corrupt/i,
    "restore the store from a backup, or move it away and start a new one",
  ],
  ["ERR_STORE_IO", /disk I\/O error|SQLITE_IOERR|input\/output error|\bEIO\b/i, "check the disk, then retry"],
  [
    "ERR_STORE_LIMIT",
    /(value|key|mutation|size) too large|too many (mutations|checks|keys|ranges)|exceeds the limit/i,
    "send a smaller value",
  ],
  ["ERR_STORE_CLOSED", /bad resource|resource (has been )?closed|BadResource|Interrupted/i, "open the store again"],
];
const BUSY = /database is locked|database table is locked|SQLITE_BUSY/i;

/** A call in flight: when it expires, how, and its work. */
interface Call {
  readonly expires: number;
  readonly expire: () => void;
  readonly work: Promise<unknown>;
}

/** Options of a {@linkcode KvGate}. */
export interface KvGateOptions {
  /** The most a call may take, busy retries included (milliseconds). */
  readonly deadline: number;
  /** Whether the store is a remote KV (a call that misses its deadline means the server does not answer). */
  readonly remote: boolean;
  /** The local file's identity when it was opened, checked before every call. */
  readonly identity?: { readonly path: string; readonly dev: number; readonly ino: number | null };
}

/**
 * Every call into Deno KV passes this gate: it checks that the store file is
 * still the one opened, retries while SQLite is busy, gives up at a
 * deadline, and turns every failure into a {@linkcode StoreError} with the
 * code of its fault.
 */
export class KvGate {
  readonly #description: string;
  readonly #options: KvGateOptions;
  #closed = false;
  /** The calls in flight, with their deadlines. */
  readonly #inFlight = new Set<Call>();
  /** The work of calls past their deadline that Deno KV still runs (a write waiting for another process's lock). */
  readonly #late = new Set<Promise<unknown>>();
  #ticker: ReturnType<typeof setInterval> | undefined;
  /** The file as seen in this turn of the event loop, if looked at yet. */
  #look: Deno.FileInfo | { readonly failure: unknown } | undefined;

  constructor(description: string, options: KvGateOptions) {
    this.#description = description;
    this.#options = options;
  }

  /** The deadline of one call, in milliseconds. */
  get deadline(): number {
    return this.#options.deadline;
  }

  /**
   * Mark the store closed: later calls fail with `ERR_STORE_CLOSED`. Then
   * `release` (closing the KV handle) runs at once when no call is running,
   * or else once every running call is done, those past their deadline
   * included: closing a Deno KV handle blocks the thread until the calls it
   * runs are done, which for a write waiting on a lock another process holds
   * is as long as that process keeps it, and a deadline must not turn into a
   * frozen process.
   */
  close(release?: () => void): void {
    this.#closed = true;
    if (!release) return;
    const running = [...this.#late, ...[...this.#inFlight].map((call) => call.work)];
    if (!running.length) return release();
    Promise.allSettled(running).then(release);
  }

  /** Run `task` (safe to repeat: a busy commit wrote nothing) under the deadline; `what` names it in messages. */
  run<T>(what: string, task: () => Promise<T>): Promise<T> {
    if (this.#closed) {
      return Promise.reject(this.#error("ERR_STORE_CLOSED", what, "the store was closed", "open it again"));
    }
    let expired = false;
    const work = this.#attempts(what, task, () => expired);
    // A call past its deadline may still finish in the background: its result is dropped, its failure observed.
    work.catch(() => {});
    return new Promise<T>((resolve, reject) => {
      const call: Call = {
        expires: performance.now() + this.deadline,
        expire: () => {
          expired = true;
          this.#late.add(work);
          const forget = () => this.#late.delete(work);
          work.then(forget, forget);
          reject(this.#missed(what));
        },
        work,
      };
      this.#watch(call);
      work.then((result) => {
        this.#unwatch(call);
        resolve(result);
      }, (error) => {
        this.#unwatch(call);
        reject(error);
      });
    });
  }

  /** Watch a call's deadline: one timer for every call in flight (a timer each cost about 15 µs of CPU a call). */
  #watch(call: Call): void {
    this.#inFlight.add(call);
    if (this.#ticker !== undefined) return;
    this.#ticker = setInterval(() => {
      const now = performance.now();
      for (const late of this.#inFlight) {
        if (late.expires <= now) {
          this.#unwatch(late);
          late.expire();
        }
      }
    }, Math.min(250, Math.max(5, this.deadline / 20)));
  }

  #unwatch(call: Call): void {
    this.#inFlight.delete(call);
    if (this.#inFlight.size || this.#ticker === undefined) return;
    clearInterval(this.#ticker);
    this.#ticker = undefined;
  }

  #missed(what: string): StoreError {
    return this.#options.remote
      ? this.#error(
        "ERR_STORE_UNREACHABLE",
        what,
        `the server did not answer within ${this.deadline} ms`,
        "check that the denokv server runs and is reachable, then retry",
      )
      : this.#error(
        "ERR_STORE_TIMEOUT",
        what,
        `it took longer than ${this.deadline} ms`,
        "another process may hold the file's lock; retry",
      );
  }

  /**
   * The file at the path now (or why it cannot be seen); never throws. A synchronous `lstat`: a few microseconds on a
   * local disk, where the asynchronous one costs about 35 µs of CPU (a hop to a worker thread and back), which, made
   * beside every call under load, took a tenth of the server's thread.
   */
  #lookAtFile(): Deno.FileInfo | { readonly failure: unknown } {
    try {
      return Deno.lstatSync(this.#options.identity!.path);
    } catch (failure) {
      return { failure };
    }
  }

  #judgeIdentity(what: string, look: Deno.FileInfo | { readonly failure: unknown }): void {
    const identity = this.#options.identity;
    if (!identity) return;
    if ("failure" in look) {
      if (look.failure instanceof Deno.errors.NotFound) {
        throw this.#error(
          "ERR_STORE_GONE",
          what,
          `the file "${identity.path}" was deleted while pab had it open`,
          "restore it from a backup, or restart pab to start a new store",
        );
      }
      throw this.fault(what, look.failure);
    }
    const moved = identity.ino !== null && (look.dev !== identity.dev || look.ino !== identity.ino);
    if (look.isSymlink || moved) {
      throw this.#error(
        "ERR_STORE_GONE",
        what,
        `the file "${identity.path}" was replaced while pab had it open`,
        "find out who replaced it; restart pab to open the new file",
      );
    }
  }

  /** The {@linkcode StoreError} for a failure of a KV call. */
  fault(what: string, error: unknown): StoreError {
    if (error instanceof StoreError) return error;
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const detail = errorText(error).split("\n")[0];
    for (const [code, pattern, fix] of FAULTS) {
      if (pattern.test(text)) return this.#error(code, what, detail, fix, error);
    }
    // Only what the store holds is parsed inside a call: a stored text that is not JSON is damage.
    if (error instanceof SyntaxError) {
      return this.#error("ERR_STORE_CORRUPT", what, `a stored text is not JSON (${detail})`, FAULTS[2][2], error);
    }
    if (error instanceof Error && error.name === "NotCapable") {
      return this.#error("ERR_STORE_OPEN", what, "Deno's permission sandbox refused it", "grant access to the store");
    }
    if (this.#options.remote) {
      return this.#error(
        "ERR_STORE_UNREACHABLE",
        what,
        detail,
        "check the server, the URL and DENO_KV_ACCESS_TOKEN",
        error,
      );
    }
    return this.#error("ERR_STORE_IO", what, detail, "check the store file and the disk", error);
  }

  async #attempts<T>(what: string, task: () => Promise<T>, expired: () => boolean): Promise<T> {
    for (let attempt = 0;; attempt++) {
      try {
        const result = await task();
        // The file's identity is checked once the call is done: a call on a deleted or replaced file fails
        // ERR_STORE_GONE (its write went nowhere), even one that wrote before the file went.
        this.#identityNow(what);
        return result;
      } catch (error) {
        this.#identityNow(what);
        if (expired() || !(error instanceof Error) || !BUSY.test(error.message)) throw this.fault(what, error);
        await backoff(attempt);
      }
    }
  }

  /** Fail with `ERR_STORE_GONE` (in the words of the call `what`) if the file is not the one opened. */
  #identityNow(what: string): void {
    if (!this.#options.identity) return;
    // One look serves every call that finishes in this turn of the event loop (a group commit finishes a dozen): the
    // KV work of each completed before the turn's promise callbacks began to run, so a look taken in them comes after
    // all of it; it is forgotten before the next turn.
    if (this.#look === undefined) {
      this.#look = this.#lookAtFile();
      queueMicrotask(() => this.#look = undefined);
    }
    this.#judgeIdentity(what, this.#look);
  }

  #error(code: StoreErrorCode, what: string, why: string, fix: string, cause?: unknown): StoreError {
    return new StoreError(code, `Cannot ${what} in store "${this.#description}": ${why} (${fix})`, { cause });
  }
}
