/**
 * Drives headless Chromium for `browser_test.ts`, which runs this file as a
 * subprocess with `--allow-all`: playwright-core looks at `/proc` when it is
 * imported (is it WSL? docker?), and Deno lets a program read `/proc` only
 * with `--allow-all`. The test itself keeps the test task's permissions; it
 * serves the page and checks what this prints.
 *
 * Usage: `deno run -A tests/_chromium_driver.ts <origin> <profile-dir>`;
 * prints one JSON object, a {@linkcode DriverReport}, on stdout.
 *
 * @module
 */
import { chromium } from "playwright-core";
import { runBundleScenario, scenarioInput, type ScenarioResult } from "./_bundle_scenario.ts";

/** Debian's Chromium. */
export const CHROMIUM = "/usr/bin/chromium";

/** Flags for a quiet, offline, unsandboxed (we run as root in a container) headless Chromium. */
export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** What the driver saw in the page. */
export interface DriverReport {
  /** `typeof Deno` in the page. */
  readonly denoInPage: string;
  /** Whether the page's own module script imported the bundle. */
  readonly loaded: boolean;
  /** Uncaught errors in the page. */
  readonly pageErrors: readonly string[];
  /** The scenario's result, run in the page. */
  readonly result: ScenarioResult;
}

async function drive(origin: string, profile: string): Promise<DriverReport> {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
  try {
    const page = context.pages()[0] ?? await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => "pabLoaded" in globalThis, undefined, { timeout: 10_000 });
    const loaded = await page.evaluate(() => (globalThis as { pabLoaded?: boolean }).pabLoaded === true);
    const denoInPage = await page.evaluate(() => typeof (globalThis as { Deno?: unknown }).Deno);
    const result = await page.evaluate(runBundleScenario, scenarioInput(`${origin}/pab.min.js`));
    return { denoInPage, loaded, pageErrors, result };
  } finally {
    await context.close();
  }
}

if (import.meta.main) {
  const [origin, profile] = Deno.args;
  if (!origin || !profile) {
    console.error("Usage: deno run -A tests/_chromium_driver.ts <origin> <profile-dir>");
    Deno.exit(2);
  }
  console.log(JSON.stringify(await drive(origin, profile)));
}
