/**
 * The rulings of a hosted session as the API names them: a ruling given by
 * its API id must approve exactly the call proposed, and decisions name each
 * ruling by the API id (the guard's own ids are internal).
 *
 * @module
 */
import { canonicalJson, PabError } from "../../core/mod.ts";
import { type Decision, gapKey } from "../../guard/mod.ts";
import type { HeldRuling, HostedSession } from "./hosted_session.ts";
import { RequestError } from "./request_error.ts";
import { textDigest } from "./text_digest.ts";

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
      "ERR_RULING_UNKNOWN",
      `Cannot use ruling ${JSON.stringify(id)}: session "${session.record.id}" has no such ruling`,
    );
  }
  if (held.ruling.fingerprint !== fingerprint) {
    throw new RequestError("ERR_RULING_MISMATCH", `Cannot use ruling "${held.id}": it approves another call`);
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

/**
 * What a decision showed, as a digest: the call, each of its gaps and the
 * session's label. The API returns it with every decision (`shown`), and a
 * user's confirmation must carry the digest of the decision the user saw:
 * the confirmation is refused when the call's gaps or the label changed since.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Guard, parsePolicy } from "../../mod.ts";
 * import { shownDigest } from "./session_rulings.ts";
 * const guard = new Guard(parsePolicy("version: 1\ntools:\n  read: {output: untrusted, on_tainted: allow}\n  post: {on_tainted: confirm}\n"));
 * guard.record("read", "a page");
 * const shown = shownDigest(guard.decide("post", {}));
 * guard.record("fetch", "another page");
 * assert.notEqual(shownDigest(guard.decide("post", {})), shown);
 * ```
 */
export function shownDigest(decision: Decision): string {
  return textDigest(shownText(decision));
}

/**
 * The text {@linkcode shownDigest} hashes: `canonicalJson([fingerprint, gaps.map(gapKey), labelBefore])`, written
 * from its parts (the canonical JSON of a string, and of an array of strings, is JSON.stringify's), with the
 * label's text kept for a label that cannot change (deeply frozen plain data): a session's label stays the same
 * object from one decision to the next.
 */
export function shownText(decision: Decision): string {
  const { fingerprint, gaps, labelBefore } = decision;
  if (typeof fingerprint !== "string" || !Array.isArray(gaps) || typeof labelBefore !== "object" || !labelBefore) {
    return canonicalJson([fingerprint, gaps.map(gapKey), labelBefore]);
  }
  let keys = "";
  for (let i = 0; i < gaps.length; i++) {
    keys += `${i ? "," : ""}${i in gaps ? JSON.stringify(gapKey(gaps[i])) : "null"}`;
  }
  return `[${JSON.stringify(fingerprint)},[${keys}],${labelText(labelBefore)}]`;
}

const LABEL_TEXTS = new WeakMap<object, string>();

function labelText(label: object): string {
  const known = LABEL_TEXTS.get(label);
  if (known !== undefined) return known;
  const text = canonicalJson(label);
  if (frozenData(label, 0)) LABEL_TEXTS.set(label, text);
  return text;
}

/** Whether a value can never change: primitives, and frozen objects of data properties holding such values. */
function frozenData(value: unknown, depth: number): boolean {
  if (typeof value !== "object" || value === null) return typeof value !== "function";
  if (depth > 32 || !Object.isFrozen(value)) return false;
  for (const key of Object.keys(value)) {
    const property = Object.getOwnPropertyDescriptor(value, key);
    if (!property || !("value" in property) || !frozenData(property.value, depth + 1)) return false;
  }
  return true;
}

/**
 * Throw 409 `ERR_RULING_STALE` unless `shown` is the digest of `now` (the
 * call's decision at this moment): a user confirms what they were shown, and
 * nothing that appeared after it.
 */
export function assertShown(now: Decision, shown: string | undefined): void {
  if (shown === shownDigest(now)) return;
  throw new RequestError(
    "ERR_RULING_STALE",
    shown === undefined
      ? `Cannot record the user's confirmation of ${now.tool}: send "shown", the digest of the decision the user saw`
      : `Cannot record the user's confirmation of ${now.tool}: its gaps or the session's label changed since the user saw it; show the new decision (its "shown" digest) and ask again`,
  );
}

/** Whether an error is the guard refusing a ruling (its session stays usable, unlike after other failures). */
export function isRulingRefusal(error: unknown): boolean {
  return error instanceof PabError && error.code === "ERR_RULING_REFUSED";
}
