/**
 * AgentDojo: replay the exported AgentDojo suites through pab and count what
 * it blocks. The door other folders import through.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AGENTDOJO_SUITES } from "./mod.ts";
 * assert.ok(AGENTDOJO_SUITES.includes("banking"));
 * ```
 *
 * @module
 */
export {
  agentdojoJson,
  type AttackOutcome,
  benchSuite,
  formatSuiteReport,
  type LegitOutcome,
  type SuiteCounts,
  suiteCounts,
  type SuiteFiles,
  type SuiteJson,
  type SuiteResult,
} from "./agentdojo_benchmark.ts";
export {
  AGENTDOJO_SUITES,
  AGENTDOJO_VERSION,
  readManifest,
  readSuiteFiles,
  type SuiteManifest,
} from "./read_suite_files.ts";
