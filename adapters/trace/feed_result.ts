/**
 * Feeding a recorded tool result back to a guard during a replay: the one
 * rule every replay (whole traces, streamed traces, AgentDojo) follows.
 *
 * @module
 */
import type { Guard } from "../../guard/mod.ts";
import type { ResultEvent } from "./trace.ts";

/** Thrown inside a replayed tool whose recorded call failed. */
class RecordedFailure extends Error {}

/**
 * Feed a call's recorded result to `guard`: through `propose` when the call
 * was allowed (so its ledger effects commit and Gate 2 labels what came back),
 * else only recorded, since the model saw it all the same. A recorded failure
 * is recorded as its text, the text the model saw, and commits nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Guard } from "../../guard/mod.ts";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { feedRecordedResult } from "./feed_result.ts";
 * const guard = new Guard(parsePolicy("version: 1\ntools:\n  read_inbox: {output: untrusted, on_tainted: allow}\n"));
 * await feedRecordedResult(guard, "read_inbox", {}, { type: "result", id: "c1", content: "hi eve@attacker.example" }, true);
 * assert.deepEqual(guard.sources.map((source) => source.name), ["tool:read_inbox"]);
 * ```
 */
export async function feedRecordedResult(
  guard: Guard,
  tool: string,
  args: Readonly<Record<string, unknown>>,
  result: ResultEvent,
  allowed: boolean,
): Promise<void> {
  const recorded = { args, ...(result.data === undefined ? {} : { data: result.data }) };
  if (!allowed) {
    guard.record(tool, result.content, recorded);
    return;
  }
  try {
    const proposal = await guard.propose(tool, args, {
      accept: true,
      run: () => {
        // propose() records the failure's text as the tool's output: the text the model saw.
        if (result.error !== undefined) throw new RecordedFailure(result.content);
        // The structured form when there is one: for a trusted tool Gate 2 then vouches for its whole fields, as
        // record() does with `data`; for an untrusted one it indexes each field's text, which the content renders.
        return result.data !== undefined ? result.data : result.content;
      },
    });
    // Decided a moment ago on the same state, so this does not happen; if it does, the model still saw the output.
    if (proposal.status !== "done") guard.record(tool, result.content, recorded);
  } catch (error) {
    if (!(error instanceof RecordedFailure)) throw error;
    // The call failed, so nothing is committed; propose() recorded the error text the model saw.
  }
}
