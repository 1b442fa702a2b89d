/**
 * `pab playground`: a static page on localhost, built on the ESM bundle, to
 * edit a policy and a conversation and see every call's decision, the label
 * over time, the vouching sources and the way to yes, and to apply rulings.
 *
 * @example Decide in the page's logic, without a browser
 * ```ts
 * import assert from "node:assert/strict";
 * import * as pab from "../../mod.ts";
 * import { replayConversation } from "./mod.ts";
 * const run = await replayConversation(pab, "version: 1\n", '{"type":"call","id":"c1","tool":"search","args":{}}', []);
 * assert.deepEqual(run.calls.map((call) => call.outcome), ["allow"]);
 * ```
 *
 * @module
 */
export { loadExamples, type PlaygroundExample } from "./load_examples.ts";
export {
  PAGE_IDS,
  type PlaygroundCall,
  type PlaygroundRun,
  replayConversation,
  startPlayground,
} from "./playground_app.ts";
export { PLAYGROUND_CSP, playgroundCss, playgroundHtml, playgroundScript } from "./playground_page.ts";
export { type PlaygroundOptions, servePlayground } from "./serve_playground.ts";
