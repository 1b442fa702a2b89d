/**
 * A hosted session's life: made under the cap of live sessions, bounded in
 * the text it records, expired when idle, and its recorded inputs dropped
 * from the store when it ends (its audit chain stays, as evidence).
 *
 * @module
 */
import type { AuditEvent } from "../audit/mod.ts";
import { isStoreErrorCode, type PabStore, type SessionInput, StoreError } from "../store/mod.ts";
import { type HostedSession, UNRECORDED_TOOL } from "./hosted_session.ts";
import type { LiveSessions } from "./live_sessions.ts";
import { randomHex } from "./random_hex.ts";
import { RequestError } from "./request_error.ts";
import { checkCredential, type CredentialedSession } from "./session_credential.ts";
import type { ServeLimits } from "./serve_limits.ts";

/** What the life of sessions needs from their host. */
export interface Lifecycle {
  /** The store. */
  readonly store: PabStore;
  /** The live sessions. */
  readonly live: LiveSessions;
  /** The bounds. */
  readonly limits: ServeLimits;
  /** The clock. */
  readonly now: () => Date;
  /** An event as the session's audit chain records it (with the time). */
  events(id: string, event: Omit<AuditEvent, "at">): AuditEvent[];
  /** A new session's id. */
  newId(): string;
}

/** Make a session under the cap (429 `ERR_SESSION_LIMIT` past it) and return its id. */
export async function createSession(
  life: Lifecycle,
  options: { readonly id?: string; readonly ledger?: string; readonly credential?: string },
): Promise<string> {
  if (!life.live.claim()) {
    throw new RequestError(
      "ERR_SESSION_LIMIT",
      `Cannot make a session: ${life.limits.maxSessions} are alive; delete finished ones (DELETE /v1/sessions/ID) or wait for idle ones to expire`,
    );
  }
  const id = options.id ?? life.newId();
  const record: CredentialedSession = {
    id,
    ledger: options.ledger ?? id,
    created: life.now().toISOString(),
    ...(options.credential ? { credential: options.credential } : {}),
  };
  // The session and the first event of its chain are one write.
  let made = false;
  try {
    made = await life.store.createSession(record, life.events(id, { kind: "session", ledger: record.ledger }));
  } finally {
    if (!made) life.live.unclaim();
  }
  if (!made) throw new RequestError("ERR_SESSION_EXISTS", `Cannot make session "${id}": it exists`);
  life.live.touch(id, record.credential !== undefined, true);
  return id;
}

/** A new session id: `s_` and 24 random hex digits. */
export function randomSessionId(): string {
  return `s_${randomHex(12)}`;
}

/**
 * End the sessions made through the API that are idle past the limit: refused at once here; the chain and the store
 * catch up in the background. Idle sessions made otherwise (a hook's, keyed by the agent's own session id) only leave
 * memory: their next event brings them back from the store.
 */
export function expireIdle(life: Lifecycle): void {
  for (const id of life.live.expired()) {
    if (!life.live.bound(id)) {
      life.live.forget(id);
      continue;
    }
    life.live.end(id, "expired");
    life.store.appendAuditEvents(id, life.events(id, { kind: "session", ended: "expired" }))
      .then(() => dropInputs(life.store, id))
      .catch(() => {});
  }
}

/** Drop a session's recorded inputs from the store (its audit chain stays). */
export async function dropInputs(store: PabStore, id: string): Promise<void> {
  await store.deleteSession(id);
}

/**
 * Refuse a tool output of `chars` characters that would take the session past `limit` (413 `ERR_SESSION_FULL`), but
 * first `record` once, for the session's life, that it read an output it could not keep: an empty output of
 * {@linkcode UNRECORDED_TOOL}. The agent may still act on what it read, so the session's context becomes as
 * untrusted as it can be (and no value of the lost output vouches for anything): a limit makes the session less
 * trusted, never more.
 */
export async function refuseUnrecordedOutput(
  session: HostedSession,
  limit: number,
  chars: number,
  record: (input: SessionInput) => Promise<void>,
): Promise<void> {
  if (session.chars + chars <= limit) return;
  if (!session.unrecorded) await record({ kind: "result", tool: UNRECORDED_TOOL, args: {}, output: "" });
  assertRoom(session, limit, chars);
}

/** Throw 413 `ERR_SESSION_FULL` when `chars` more characters would take the session past `limit`. */
export function assertRoom(session: HostedSession, limit: number, chars: number): void {
  if (session.chars + chars > limit) {
    throw new RequestError(
      "ERR_SESSION_FULL",
      `Cannot record more in session "${session.record.id}": it holds ${session.chars} of its ${limit} characters of text; start a new session`,
    );
  }
}

/** Check that the store answers (its own probe when it has one, else a read); throw a 503 when it does not. */
export async function probeStore(store: PabStore): Promise<void> {
  const probing = store as PabStore & { probe?: () => Promise<unknown> };
  if (typeof probing.probe !== "function") return void await store.session("(health)");
  const health = await probing.probe() as { ok?: unknown; code?: unknown; message?: unknown } | undefined;
  if (health?.ok !== false) return;
  const message = String(health.message ?? `Cannot use the store (${store.description})`);
  throw isStoreErrorCode(health.code)
    ? new StoreError(health.code, message)
    : new RequestError("ERR_STORE_UNAVAILABLE", message);
}

/**
 * Check a token against the stored record of a session and return its ledger (403 `ERR_SESSION_CREDENTIAL` for a
 * wrong one, 404 for an unknown or ended session). The record is enough: a caller without the token never makes
 * this process rebuild a session.
 */
export async function authorizeSession(life: Lifecycle, id: string, token: string | null): Promise<string> {
  const ended = life.live.ended(id);
  if (ended) throw unknownSession(id, ended);
  const record = life.live.held(id)?.record ?? await life.store.session(id);
  if (!record) throw unknownSession(id);
  checkCredential(record, token);
  return record.ledger;
}

/** 404 `ERR_SESSION_UNKNOWN`, saying whether the session was deleted or expired here. */
export function unknownSession(id: string, ended?: "deleted" | "expired"): RequestError {
  const why = ended === "deleted" ? "it was deleted" : ended === "expired" ? "it expired unused" : "no such session";
  return new RequestError("ERR_SESSION_UNKNOWN", `Cannot find session "${id}": ${why}`);
}
