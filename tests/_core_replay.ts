/**
 * A trace replayed through the core bundle's API wherever it runs: in Deno
 * over `mod.ts`, or inside QuickJS over `dist/pab.core.min.js`.
 *
 * {@linkcode replayWithCore} is shipped to the other engine as source text
 * (`Function.prototype.toString`), so it is self-contained: no imports, no
 * closures over this module, no Web APIs. It does what `pab check` does
 * (`replayTrace` with stand-in approvers that agree and casts that fail) with
 * only `compilePolicy`, `Guard`, `decide`, `propose`, `record` and
 * `explainDecision`, and returns plain data.
 *
 * @module
 */

/** A trace event as `readTrace` returns it (only the fields the replay reads). */
export interface CoreEvent {
  readonly type: string;
  readonly content?: string;
  readonly id?: string;
  readonly tool?: string;
  readonly args?: Readonly<Record<string, unknown>>;
  readonly data?: unknown;
  readonly error?: string;
}

/** What to replay. */
export interface CoreReplayInput {
  /** The policy as JSON text. */
  readonly policyJson: string;
  /** The policy's name, for messages. */
  readonly policySource: string;
  /** The trace's events. */
  readonly events: readonly CoreEvent[];
}

/** One call's decision, as plain data. */
export interface CoreCall {
  readonly id: string;
  readonly tool: string;
  readonly outcome: string;
  readonly codes: readonly string[];
  readonly fingerprint: string;
  readonly explanation: string;
}

/** The whole replay, or the error that stopped it. */
export interface CoreReplay {
  readonly calls: readonly CoreCall[];
  readonly error?: string;
}

/** Replay `input` with the pab module `pab` (mod.ts or the core bundle). Self-contained. */
export async function replayWithCore(
  // deno-lint-ignore no-explicit-any
  pab: any,
  input: CoreReplayInput,
): Promise<CoreReplay> {
  const calls: CoreCall[] = [];
  try {
    const policy = pab.compilePolicy(JSON.parse(input.policyJson), input.policySource);
    const approvers: Record<string, () => boolean> = {};
    for (const name of Object.keys(policy.approvers)) approvers[name] = () => true;
    const casts: Record<string, () => never> = {};
    for (const spec of Object.values(policy.casts) as { cast: string }[]) {
      casts[spec.cast] = () => {
        throw new Error("casts are code, and a replay cannot run them");
      };
    }
    const guard = new pab.Guard(policy, { approvers, casts });
    const results = new Map<string, CoreEvent>();
    for (const event of input.events) if (event.type === "result" && event.id) results.set(event.id, event);
    for (const event of input.events) {
      if (event.type === "system") guard.system(event.content);
      else if (event.type === "user") guard.user(event.content);
      if (event.type !== "call" || !event.tool || !event.id) continue;
      const args = event.args ?? {};
      const decision = guard.decide(event.tool, args);
      calls.push({
        id: event.id,
        tool: event.tool,
        outcome: decision.outcome,
        codes: decision.gaps.map((gap: { code: string }) => gap.code),
        fingerprint: decision.fingerprint,
        explanation: pab.explainDecision(decision),
      });
      const result = results.get(event.id);
      if (!result) continue;
      const recorded = { args, ...(result.data === undefined ? {} : { data: result.data }) };
      if (decision.outcome !== "allow" || result.error !== undefined) {
        guard.record(event.tool, result.content, recorded);
        continue;
      }
      const proposal = await guard.propose(event.tool, args, {
        accept: true,
        run: () => result.data !== undefined ? result.data : result.content,
      });
      if (proposal.status !== "done") guard.record(event.tool, result.content, recorded);
    }
    return { calls };
  } catch (error) {
    // deno-lint-ignore no-explicit-any
    const caught = error as any;
    return { calls, error: `${caught?.name}: ${caught?.message}` };
  }
}
