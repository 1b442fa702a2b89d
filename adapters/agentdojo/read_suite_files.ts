/**
 * Read one suite's committed traces and policy for the bench, through the
 * manifest: every file it lists is read and its sha256 checked, so a trace
 * edited by hand (or truncated) is an error, not a silently different result.
 *
 * @module
 */
import { TraceError } from "../trace/mod.ts";
import { sha256Hex } from "../../core/mod.ts";
import type { SuiteFiles } from "./agentdojo_benchmark.ts";

/** The four suites, in report order. */
export const AGENTDOJO_SUITES: readonly string[] = Object.freeze(["banking", "slack", "travel", "workspace"]);

/** The AgentDojo version the traces were exported from. */
export const AGENTDOJO_VERSION = "v1.2.2";

/** What the manifest says about one suite. */
export interface SuiteManifest {
  /** Counts written by the exporter. */
  readonly counts: {
    readonly userTasks: number;
    readonly userCalls: number;
    readonly attacks?: {
      readonly pairs: number;
      readonly excluded: number;
      readonly excludedInjectionTasks: readonly string[];
      readonly unguardedFailures: readonly string[];
    };
  };
  /** sha256 of every file, by path relative to the version folder. */
  readonly files: Readonly<Record<string, string>>;
}

/** Read and parse the manifest under `root` (the `traces/agentdojo` folder). */
export async function readManifest(
  root: string,
  readText: (path: string) => Promise<string>,
): Promise<Readonly<Record<string, SuiteManifest>>> {
  const path = `${root}/${AGENTDOJO_VERSION}/manifest.json`;
  const manifest = JSON.parse(await readText(path));
  if (!manifest || typeof manifest !== "object" || typeof manifest.suites !== "object") {
    throw new TraceError(
      `Cannot read "${path}": expected {"suites": {...}}; regenerate it with adapters/agentdojo/export_traces.py`,
    );
  }
  return manifest.suites;
}

/**
 * Read a suite's policy and traces, verifying each trace against the manifest.
 * Throws {@linkcode TraceError} when a file is missing from the manifest's
 * counts or its hash does not match.
 */
export async function readSuiteFiles(
  root: string,
  suite: string,
  manifest: Readonly<Record<string, SuiteManifest>>,
  readText: (path: string) => Promise<string>,
): Promise<SuiteFiles> {
  const entry = Object.hasOwn(manifest, suite) ? manifest[suite] : undefined;
  if (!entry) {
    throw new TraceError(
      `Cannot find suite "${suite}" in the manifest: expected one of ${Object.keys(manifest).join(", ")}`,
    );
  }
  const read = async (relative: string) => {
    const path = `${root}/${AGENTDOJO_VERSION}/${relative}`;
    const text = await readText(path);
    const actual = sha256Hex(text);
    if (actual !== entry.files[relative]) {
      throw new TraceError(
        `Cannot trust "${path}": its sha256 is ${actual.slice(0, 12)}..., the manifest says ${
          entry.files[relative].slice(0, 12)
        }...; ` +
          "restore it from git or regenerate the traces (adapters/agentdojo/README.md)",
      );
    }
    return { source: path, text };
  };
  const listed = (folder: string) =>
    Object.keys(entry.files).filter((file) => file.startsWith(`${suite}/${folder}/`) && file.endsWith(".jsonl"))
      .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const userFiles = listed("user");
  const attackFiles = listed("attacks");
  if (userFiles.length !== entry.counts.userTasks || attackFiles.length !== (entry.counts.attacks?.pairs ?? 0)) {
    throw new TraceError(
      `Cannot trust the manifest for "${suite}": it counts ${entry.counts.userTasks} user tasks and ` +
        `${entry.counts.attacks?.pairs ?? 0} pairs but lists ${userFiles.length} and ${attackFiles.length} files`,
    );
  }
  return {
    suite,
    policy: { source: `${suite}.yaml`, text: await readText(`${root}/policies/${suite}.yaml`) },
    userTraces: await Promise.all(userFiles.map(read)),
    attackTraces: await Promise.all(attackFiles.map(read)),
    excluded: entry.counts.attacks?.excluded ?? 0,
  };
}
