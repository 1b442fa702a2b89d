/**
 * The office benchmark: a pretend company, a gullible scripted agent, six
 * tasks with planted traps and four arms of the guard.
 *
 * @module
 */
export { OFFICE_POLICY_YAML, officePolicy } from "./office_policy.ts";
export {
  type Mail,
  OFFICE_FILES,
  OFFICE_LABELS,
  type OfficeEvent,
  type OfficeFile,
  OfficeWorld,
} from "./office_world.ts";
export { OFFICE_TOOLS, officeApprovers, type OfficeTool } from "./office_tools.ts";
export { type AgentArm, type Extract, OfficeAgent } from "./office_agent.ts";
export { OFFICE_SCENARIOS, type OfficeScenario } from "./office_scenarios.ts";
export {
  formatOfficeAudit,
  formatOfficeTable,
  formatOfficeTrace,
  OFFICE_ARMS,
  officeBenchJson,
  type OfficeRun,
  runOfficeBench,
  runOfficeScenario,
} from "./office_benchmark.ts";
