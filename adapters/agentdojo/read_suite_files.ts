/**
 * Read one suite's committed traces and policy for the bench, through the
 * manifest: every file it lists is read and its sha256 checked, and so is the
 * policy, so a trace or policy edited by hand (or truncated) is an error, not a
 * silently different result.
 *
 * @module
 */
import { isRecord, sha256Hex } from "../../core/mod.ts";
import { TraceError } from "../trace/mod.ts";
import type { SuiteFiles } from "./agentdojo_benchmark.ts";
import { parseJson } from "../json/mod.ts";

/** The four suites, in report order. */
export const AGENTDOJO_SUITES: readonly string[] = Object.freeze(["banking", "slack", "travel", "workspace"]);

/** The AgentDojo version the traces were exported from. */
export const AGENTDOJO_VERSION = "v1.2.2";

/**
 * Which policies the bench replays: `hand-written` (`<root>/policies/`, pinned by
 * the traces' manifest) or `drafted` (`<root>/drafted/`, the unedited output of
 * `pab generate` from each suite's `suite.json`, pinned by `<root>/drafted/manifest.json`).
 */
export type PolicySet = "hand-written" | "drafted";

/** The policy sets, in report order. */
export const POLICY_SETS: readonly PolicySet[] = Object.freeze(["hand-written", "drafted"]);

/** The folder of the drafted policies under `root`. */
export function draftedFolder(root: string): string {
  return `${root}/drafted`;
}

/** The attack of the traces under `<root>/v1.2.2`; others live under `<root>/attacks/<attack>`. */
export const DEFAULT_ATTACK = "important_instructions";

/** What the manifest says about one suite. */
export interface SuiteManifest {
  /** Counts written by the exporter. */
  readonly counts: {
    readonly userTasks?: number;
    readonly userCalls?: number;
    readonly attacks?: {
      readonly pairs: number;
      readonly excluded: number;
      readonly excludedInjectionTasks: readonly string[];
      readonly unguardedFailures: readonly string[];
    };
  };
  /** sha256 of every file, by path relative to the manifest's folder. */
  readonly files: Readonly<Record<string, string>>;
}

/** A manifest: where it is, its suites, and the policies' sha256 by suite. */
export interface Manifest {
  /** The folder the manifest's paths are relative to. */
  readonly folder: string;
  /** Per suite. */
  readonly suites: Readonly<Record<string, SuiteManifest>>;
  /** sha256 of `policies/<suite>.yaml`, by suite. */
  readonly policies: Readonly<Record<string, string>>;
}

/** The folder of an attack's traces under `root` (the `traces/agentdojo` folder). */
export function attackFolder(root: string, attack: string): string {
  return attack === DEFAULT_ATTACK ? `${root}/${AGENTDOJO_VERSION}` : `${root}/attacks/${attack}`;
}

/** Read and parse the manifest in `folder`. */
export async function readManifest(folder: string, readText: (path: string) => Promise<string>): Promise<Manifest> {
  const path = `${folder}/manifest.json`;
  const manifest = await readJsonObject(path, readText);
  if (!isRecord(manifest?.suites)) {
    throw new TraceError(
      `Cannot read "${path}": expected {"suites": {...}}; regenerate it with adapters/agentdojo/export_traces.py`,
    );
  }
  const policies = isRecord(manifest.policies) ? manifest.policies : {};
  return { folder, suites: manifest.suites as Manifest["suites"], policies: policies as Manifest["policies"] };
}

/**
 * Read the drafted policies' manifest (`{"policies": {SUITE: sha256}}`) in
 * `folder`, as a {@linkcode Manifest} with no suites of its own.
 */
export async function readDraftedManifest(
  folder: string,
  readText: (path: string) => Promise<string>,
): Promise<Manifest> {
  const path = `${folder}/manifest.json`;
  const manifest = await readJsonObject(path, readText);
  if (!isRecord(manifest?.policies)) {
    throw new TraceError(
      `Cannot read "${path}": expected {"policies": {SUITE: sha256}}; regenerate the drafts with ` +
        "deno task draft-agentdojo",
    );
  }
  return { folder, suites: {}, policies: manifest.policies as Manifest["policies"] };
}

/** A JSON file's object, or `undefined` when it is not JSON or not an object (a read error is thrown). */
async function readJsonObject(
  path: string,
  readText: (path: string) => Promise<string>,
): Promise<Record<string, unknown> | undefined> {
  try {
    const value = parseJson(await readText(path));
    return isRecord(value) ? value : undefined;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return undefined;
  }
}

/** The suites a manifest holds, in report order. */
export function manifestSuites(manifest: Manifest): string[] {
  return AGENTDOJO_SUITES.filter((suite) => Object.hasOwn(manifest.suites, suite));
}

function suiteEntry(manifest: Manifest, suite: string): SuiteManifest {
  if (!Object.hasOwn(manifest.suites, suite)) {
    throw new TraceError(
      `Cannot find suite "${suite}" in "${manifest.folder}/manifest.json": expected one of ${
        manifestSuites(manifest).join(", ") || "(none)"
      }`,
    );
  }
  return manifest.suites[suite];
}

function checked(path: string, text: string, expected: string | undefined): void {
  const actual = sha256Hex(text);
  if (actual === expected) return;
  throw new TraceError(
    expected === undefined
      ? `Cannot trust "${path}": the manifest has no sha256 for it; regenerate the manifest (adapters/agentdojo/README.md)`
      : `Cannot trust "${path}": its sha256 is ${actual.slice(0, 12)}..., the manifest says ${
        expected.slice(0, 12)
      }...; restore it from git or regenerate the traces (adapters/agentdojo/README.md)`,
  );
}

function listed(entry: SuiteManifest, suite: string, folder: string): string[] {
  return Object.keys(entry.files).filter((file) => file.startsWith(`${suite}/${folder}/`) && file.endsWith(".jsonl"))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

/**
 * Read a suite's policy and traces, verifying each file (the policy included)
 * against the manifests. User traces come from `users`, attack traces from
 * `attacks` (the same manifest for the default attack); the policy from
 * `<root>/policies/`, or with `drafted` from the drafted policies' folder,
 * checked against that manifest. Throws
 * {@linkcode TraceError} when a file's hash does not match or the counts
 * disagree with the files listed.
 */
export async function readSuiteFiles(
  root: string,
  suite: string,
  manifests: { readonly users: Manifest; readonly attacks: Manifest; readonly drafted?: Manifest },
  readText: (path: string) => Promise<string>,
): Promise<SuiteFiles> {
  const userEntry = suiteEntry(manifests.users, suite);
  const attackEntry = suiteEntry(manifests.attacks, suite);
  const read = (manifest: Manifest, entry: SuiteManifest) => async (relative: string) => {
    const path = `${manifest.folder}/${relative}`;
    const text = await readText(path);
    checked(path, text, entry.files[relative]);
    return { source: path, text };
  };
  const userFiles = listed(userEntry, suite, "user");
  const attackFiles = listed(attackEntry, suite, "attacks");
  const userTasks = userEntry.counts.userTasks ?? 0;
  const pairs = attackEntry.counts.attacks?.pairs ?? 0;
  if (userFiles.length !== userTasks || attackFiles.length !== pairs) {
    throw new TraceError(
      `Cannot trust the manifest for "${suite}": it counts ${userTasks} user tasks and ${pairs} pairs but lists ` +
        `${userFiles.length} and ${attackFiles.length} files`,
    );
  }
  const drafted = manifests.drafted;
  const policyPath = drafted ? `${drafted.folder}/${suite}.yaml` : `${root}/policies/${suite}.yaml`;
  const policyText = await readText(policyPath);
  if (drafted) checked(policyPath, policyText, drafted.policies[suite]);
  else {
    checked(policyPath, policyText, manifests.users.policies[suite]);
    if (manifests.attacks !== manifests.users) checked(policyPath, policyText, manifests.attacks.policies[suite]);
  }
  return {
    suite,
    policy: { source: `${suite}.yaml`, text: policyText },
    userTraces: await Promise.all(userFiles.map(read(manifests.users, userEntry))),
    attackTraces: await Promise.all(attackFiles.map(read(manifests.attacks, attackEntry))),
    excluded: attackEntry.counts.attacks?.excluded ?? 0,
  };
}
