/**
 * A worker thread of `pab serve --workers N` (and `pab bench serve`): builds
 * its host from the policy's text and the store's address, with the hook
 * endpoint, and serves its share of the sessions.
 *
 * @module
 */
import { CLAUDE_CODE_HOOK_PATH, claudeCodeRoute } from "../../claude_code/mod.ts";
import { parsePolicy, type PolicyFormat } from "../../../guard/policy/text/mod.ts";
import { serveAsWorker, SessionHost } from "../../serve/mod.ts";
import { openStore } from "../../store/mod.ts";

/** What each worker is given: the policy as text (parsed again in the worker) and where the store is. */
export interface ServeWorkerConfig {
  /** The policy's text, its source (for messages) and its format. */
  readonly policy: { readonly text: string; readonly source: string; readonly format?: PolicyFormat };
  /** The store: `:memory:` (one per worker), a KV file or a remote KV's URL. */
  readonly store: string;
}

/** This module, for `startWorkerServer`'s `module`. */
export const SERVE_WORKER_MODULE: URL = new URL(import.meta.url);

/**
 * The session a Claude Code hook body belongs to: every hook of one Claude
 * Code session goes to the same worker.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hookSessionKey } from "./serve_worker.ts";
 * assert.equal(hookSessionKey({ session_id: "abc", hook_event_name: "PreToolUse" }), "abc");
 * assert.equal(hookSessionKey({ hook_event_name: "PreToolUse" }), undefined);
 * assert.equal(hookSessionKey(null), undefined);
 * ```
 */
export function hookSessionKey(body: unknown): string | undefined {
  const id = (body as { session_id?: unknown } | null)?.session_id;
  return typeof id === "string" ? id : undefined;
}

// Imported by the main thread for the names above; run as a worker, it serves.
if (typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== "undefined") {
  serveAsWorker(async (raw, options) => {
    const config = raw as ServeWorkerConfig;
    const policy = parsePolicy(config.policy.text, {
      source: config.policy.source,
      ...(config.policy.format ? { format: config.policy.format } : {}),
    });
    const store = await openStore(config.store);
    try {
      const host = new SessionHost(policy, store, options);
      return {
        host,
        routes: { [CLAUDE_CODE_HOOK_PATH]: claudeCodeRoute(host) },
        routeKeys: { [CLAUDE_CODE_HOOK_PATH]: hookSessionKey },
      };
    } catch (error) {
      store.close();
      throw error;
    }
  });
}
