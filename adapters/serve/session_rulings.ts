/**
 * The rulings of a hosted session as the API names them: a ruling given by
 * its API id must approve exactly the call proposed, and decisions name each
 * ruling by the API id (the guard's own ids are internal).
 *
 * @module
 */
import type { Decision } from "../../guard/mod.ts";
import type { HeldRuling, HostedSession } from "./hosted_session.ts";
import { RequestError } from "./request_error.ts";

/** A ruling as the API returns it. */
export interface RulingInfo {
  /** The ruling's id: pass it to `propose` in `rulings`. */
  readonly id: string;
  /** Who gave it (`user` for a confirmation). */
  readonly approver: string;
  /** The tool of the call it approves. */
  readonly tool: string;
  /** The fingerprint of the one call it approves. */
  readonly fingerprint: string;
}

/**
 * The ruling `id` of `session`, if it approves the call with `fingerprint`:
 * 404 `ERR_RULING_UNKNOWN` for an id the session never gave, 409
 * `ERR_RULING_MISMATCH` for a ruling on another call.
 */
export function heldRuling(session: HostedSession, id: unknown, fingerprint: string): HeldRuling {
  const held = typeof id === "string" ? session.rulings.get(id) : undefined;
  if (!held) {
    throw new RequestError(
      404,
      "ERR_RULING_UNKNOWN",
      `Cannot use ruling ${JSON.stringify(id)}: session "${session.record.id}" has no such ruling`,
    );
  }
  if (held.ruling.fingerprint !== fingerprint) {
    throw new RequestError(409, "ERR_RULING_MISMATCH", `Cannot use ruling "${held.id}": it approves another call`);
  }
  return held;
}

/**
 * `decision` with each ruling named by the API's id, as `rulings`, the
 * `/rulings` answer and the audit chain name it.
 */
export function apiDecision(decision: Decision, session: HostedSession): Decision {
  if (!decision.waived.length && !decision.notes.some((note) => note.code === "ruling-ignored")) return decision;
  const rename = (id: string) => session.apiRulingIds.get(id) ?? id;
  return {
    ...decision,
    waived: decision.waived.map((waiver) => ({ ...waiver, ruling: rename(waiver.ruling) })),
    notes: decision.notes.map((note) =>
      note.code === "ruling-ignored"
        ? { ...note, message: note.message.replace(/^ruling (\S+)/, (_, id: string) => `ruling ${rename(id)}`) }
        : note
    ),
  };
}
