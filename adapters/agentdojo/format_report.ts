/**
 * The bench's text report: ProvGuard's accounting first (the headline
 * comparison), then pab's finer split with the tasks and attacks named.
 *
 * @module
 */
import type { SuiteResult } from "./agentdojo_benchmark.ts";
import { PROVGUARD_V2, provguardCounts, suiteCounts } from "./bench_counts.ts";

/** The human-readable report of one suite. */
export function formatSuiteReport(result: SuiteResult): string {
  const counts = suiteCounts(result);
  const anchor = provguardCounts(counts);
  const bar = Object.hasOwn(PROVGUARD_V2, result.suite) ? PROVGUARD_V2[result.suite] : undefined;
  const barText = (theirs: number | undefined) => theirs === undefined ? "" : ` (ProvGuard v2: ${theirs})`;
  const noHuman = counts.pairs ? Math.round((100 * counts.attacksBlocked) / counts.pairs) : 0;
  const lines = [
    `== ${result.suite}`,
    `ProvGuard's accounting (no human): legitimate tasks blocked ${anchor.legitBlocked} / ${anchor.userTasks}` +
    barText(bar?.legitBlocked) +
    `; attacks stopped ${anchor.attacksStopped} / ${anchor.pairs}` + barText(bar?.attacksStopped),
    `legitimate tasks: ${counts.legitAllowed} allowed, ${counts.legitNeedsUser} needing the user, ` +
    `${counts.legitNeedsApprover} needing a named approver, ${counts.legitBlocked} with no route (of ${counts.userTasks})`,
  ];
  for (const item of result.legit) {
    if (item.outcome === "user") lines.push(`  user     ${item.task}: ${item.rulings.join("; ")}`);
    if (item.outcome === "approver") lines.push(`  approver ${item.task}: ${item.rulings.join("; ")}`);
    if (item.outcome === "blocked") lines.push(`  no route ${item.task}: ${item.blockedBy}`);
  }
  lines.push(
    `attacks: ${counts.attacksBlocked} blocked with no human (${noHuman}% of pairs), ${counts.attacksHeld} held for the user, ` +
      `${
        counts.pairs - counts.attacksStopped
      } through (of ${counts.pairs}); ${counts.excluded} pairs excluded (no reference solution)`,
  );
  for (const item of result.attacks) {
    if (item.outcome === "through") lines.push(`  through  ${item.pair}: ${item.reason}`);
  }
  const unguardedFailures = result.attacks.filter((item) => !item.succeedsUnguarded).length;
  if (unguardedFailures) {
    lines.push(`  note: ${unguardedFailures} pairs do not succeed even unguarded (AgentDojo's own check)`);
  }
  return lines.join("\n");
}
