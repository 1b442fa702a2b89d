/**
 * AgentDojo's reference runs, replayed through the guard: the suites' files
 * read through a manifest that pins every trace and policy by sha256, each
 * trace replayed so that a call pab would not have run feeds nothing to later
 * calls, and the counts on ProvGuard's accounting next to pab's finer split.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AGENTDOJO_SUITES, wouldRun } from "./mod.ts";
 * assert.deepEqual(AGENTDOJO_SUITES, ["banking", "slack", "travel", "workspace"]);
 * assert.equal(wouldRun("attacker", "user"), false); // the user refuses the attacker's call
 * assert.equal(wouldRun("user", "user"), true); // and confirms their own
 * ```
 *
 * @module
 */
export {
  type AttackOutcome,
  attackOutcome,
  type BenchOptions,
  benchSuite,
  type LegitOutcome,
  legitOutcome,
  type LegitVerdict,
  type SuiteFiles,
  type SuiteResult,
} from "./agentdojo_benchmark.ts";
export {
  type AgentdojoJson,
  agentdojoJson,
  type CallDetail,
  PROVGUARD_V2,
  type ProvGuardCounts,
  provguardCounts,
  type SuiteCounts,
  suiteCounts,
  type SuiteJson,
  type SuiteSplit,
  suiteSplit,
  type TraceDetail,
} from "./bench_counts.ts";
export { formatSuiteReport } from "./format_report.ts";
export {
  AGENTDOJO_SUITES,
  AGENTDOJO_VERSION,
  attackFolder,
  DEFAULT_ATTACK,
  draftedFolder,
  type Manifest,
  manifestSuites,
  POLICY_SETS,
  type PolicySet,
  readDraftedManifest,
  readManifest,
  readSuiteFiles,
  type SuiteManifest,
} from "./read_suite_files.ts";
export { type FeedMode, type LiveCall, replayLive, type Verdict, verdictOf, wouldRun } from "./replay_live.ts";
