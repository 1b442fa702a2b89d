/**
 * Read one suite's committed traces and policy from disk for the bench.
 *
 * @module
 */
import type { SuiteFiles } from "./agentdojo_benchmark.ts";

/** The four suites, in report order. */
export const AGENTDOJO_SUITES: readonly string[] = Object.freeze(["banking", "slack", "travel", "workspace"]);

/** Read a suite's files under `root` (the `traces/agentdojo` folder). */
export async function readSuiteFiles(root: string, suite: string): Promise<SuiteFiles> {
  const base = `${root}/v1.2.2/${suite}`;
  const manifest = JSON.parse(await Deno.readTextFile(`${root}/v1.2.2/manifest.json`));
  const excluded = Number(manifest?.suites?.[suite]?.counts?.attacks?.excluded ?? 0);
  return {
    suite,
    policy: { source: `${suite}.yaml`, text: await Deno.readTextFile(`${root}/policies/${suite}.yaml`) },
    userTraces: await readFolder(`${base}/user`),
    attackTraces: await readFolder(`${base}/attacks`),
    excluded,
  };
}

async function readFolder(folder: string): Promise<{ source: string; text: string }[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(folder)) {
      if (entry.isFile && entry.name.endsWith(".jsonl")) names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  names.sort(naturalOrder);
  return Promise.all(
    names.map(async (name) => ({ source: `${folder}/${name}`, text: await Deno.readTextFile(`${folder}/${name}`) })),
  );
}

function naturalOrder(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}
