/**
 * The end of the server's answer to a POST over Streamable HTTP: a JSON
 * answer, or an event stream the server closed (or that broke). The MCP SDK
 * drops an answer that holds no response for the request it was sent for
 * (another id, an event that is not a message, a stream closed early), and
 * the request would wait for ever; watching the end lets the transport answer
 * such a request itself. A stream that gave its events ids is resumable: the
 * SDK reconnects to it, and its end is not the end of the answer.
 *
 * @module
 */

const LF = 0x0a;
const CR = 0x0d;
const ID_FIELD = [0x69, 0x64, 0x3a]; // "id:" at the start of a line

/**
 * `body`, passed through unchanged, with `onEnd` called once when it ends,
 * breaks or is cancelled; `resumable` says whether an event stream gave an
 * event id (then the SDK resumes it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { watchAnswerEnd } from "./http_answer_end.ts";
 * const ends: boolean[] = [];
 * const body = new Response("id: 7\ndata: {}\n\n").body!;
 * await new Response(watchAnswerEnd(body, (resumable) => ends.push(resumable))).text();
 * assert.deepEqual(ends, [true]);
 * ```
 */
export function watchAnswerEnd(
  body: ReadableStream<Uint8Array>,
  onEnd: (resumable: boolean) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let resumable = false;
  let column = 0;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd(resumable);
  };
  const scan = (bytes: Uint8Array) => {
    for (const byte of bytes) {
      if (byte === LF || byte === CR) column = 0;
      else if (column < ID_FIELD.length && byte === ID_FIELD[column]) {
        if (++column === ID_FIELD.length) resumable = true;
      } else column = ID_FIELD.length + 1;
    }
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return end();
        }
        if (!resumable) scan(value);
        controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        end();
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
