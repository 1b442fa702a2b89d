/**
 * The door every request of a server with worker threads passes, on whichever
 * thread took its connection: the bound on requests in flight (shared by the
 * threads), the token and the checks that keep web pages out, and the body
 * read within bounds; what passes goes on as plain data (a request a worker
 * thread can route, or be handed), and its answer comes back as JSON text.
 *
 * @module
 */
import type { BodyDeadlines } from "./body_deadlines.ts";
import { errorAnswer, jsonTextAnswer } from "./error_answer.ts";
import { readBodyBytes } from "./read_body.ts";
import { RequestError, type RequestErrorCode } from "./request_error.ts";
import { SESSION_TOKEN_HEADER } from "./session_credential.ts";
import type { SessionTally } from "./session_tally.ts";

/** A request past the door: admitted, its body read within bounds, with the one header routes read. */
export interface AdmittedRequest {
  readonly method: string;
  readonly path: string;
  /** The session token header's value. */
  readonly token: string | null;
  readonly body: Uint8Array<ArrayBuffer> | null;
  /**
   * Why the body of a tool output (`results`, `commit`) was refused, if it was: the session's owner answers it, after
   * recording that the session lost an output (see `routeRequest`).
   */
  readonly refused?: { readonly code: RequestErrorCode; readonly message: string };
}

/** An answer as JSON text. */
export interface TextAnswer {
  readonly status: number;
  /** Headers beyond the JSON ones (`Retry-After`). */
  readonly headers?: Record<string, string>;
  /** The JSON text. */
  readonly body: string;
}

/** What the door checks against. */
export interface IntakeBounds {
  /** The token and web checks (throws the coded error); see `admission`. */
  readonly admit: (request: Request) => void;
  /** The largest body in bytes. */
  readonly limit: number;
  /** Body deadlines and the stop signal. */
  readonly deadlines: BodyDeadlines;
  /** Requests served at once (past it: 503 `ERR_OVERLOADED`), counted in `inFlight`. */
  readonly maxInFlight: number;
  readonly inFlight: SessionTally;
  /** Requests come from `Deno.serve`, whose framing holds each body to its declared length (see `BodyBounds.framed`). */
  readonly framed?: boolean;
}

/**
 * A request handler that admits each request within `bounds` and passes it
 * to `dispatch`; a refusal or a thrown error answers its coded error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { admission } from "./http_api.ts";
 * import { BodyDeadlines } from "./body_deadlines.ts";
 * import { requestIntake } from "./request_intake.ts";
 * import { localTally } from "./session_tally.ts";
 * const inFlight = localTally();
 * const bounds = { admit: admission({}), limit: 64, deadlines: new BodyDeadlines(1000), maxInFlight: 1, inFlight };
 * const handle = requestIntake(bounds, (request) => Promise.resolve({ status: 200, body: JSON.stringify(request.path) }));
 * const answer = await handle(new Request("http://localhost:4517/v1/health"));
 * assert.deepEqual([answer.status, await answer.json()], [200, "/v1/health"]);
 * inFlight.add(1);
 * assert.equal((await handle(new Request("http://localhost:4517/v1/health"))).status, 503);
 * ```
 */
export function requestIntake(
  bounds: IntakeBounds,
  dispatch: (request: AdmittedRequest) => Promise<TextAnswer>,
): (request: Request) => Promise<Response> {
  const { admit, maxInFlight, inFlight } = bounds;
  const read = { limit: bounds.limit, deadlines: bounds.deadlines, framed: bounds.framed === true };
  return async (request) => {
    if (!inFlight.claim(maxInFlight)) {
      return errorAnswer(
        new RequestError(
          "ERR_OVERLOADED",
          `Cannot serve the request now: ${inFlight.count} are in flight; retry later`,
        ),
      );
    }
    try {
      admit(request);
      const path = new URL(request.url).pathname;
      const token = request.headers.get(SESSION_TOKEN_HEADER);
      let body: Uint8Array<ArrayBuffer> | null = null;
      let refused: AdmittedRequest["refused"];
      try {
        body = await readBodyBytes(request, read);
      } catch (error) {
        if (!(error instanceof RequestError) || error.code === "ERR_SHUTTING_DOWN" || !OUTPUT_PATH.test(path)) {
          throw error;
        }
        refused = { code: error.code, message: error.message };
      }
      const answer = await dispatch({ method: request.method, path, token, body, ...(refused ? { refused } : {}) });
      return jsonTextAnswer(answer.status, answer.body, answer.headers);
    } catch (error) {
      return errorAnswer(error);
    } finally {
      inFlight.add(-1);
    }
  };
}

/** The paths that carry a tool output to a session. */
const OUTPUT_PATH = /^\/v1\/sessions\/[^/]+\/(?:results|commit)$/;
