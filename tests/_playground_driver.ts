/**
 * Drives headless Chromium through the playground and an HTML report for
 * `playground_browser_test.ts`, which runs this file as a subprocess with
 * `--allow-all` (playwright-core reads `/proc` when imported). It clicks,
 * types, saves screenshots, and prints what it saw as one JSON object.
 *
 * Usage:
 *   deno run -A tests/_playground_driver.ts playground <url> <profile-dir> <screenshot-prefix>
 *   deno run -A tests/_playground_driver.ts report <url> <profile-dir> <screenshot-prefix>
 *   deno run -A tests/_playground_driver.ts snippet <url> <profile-dir> <screenshot-prefix>
 *
 * @module
 */
import { chromium, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS } from "./_chromium_driver.ts";

// The page's DOM, inside page.evaluate callbacks (this file is type-checked without the DOM library).
// deno-lint-ignore no-explicit-any
type Dom = any;

/** One decision card as the page shows it. */
export interface CardSeen {
  readonly id: string;
  readonly outcome: string;
  readonly badge: string;
  readonly text: string;
  readonly button: string | null;
}

/** The page's state at one moment. */
export interface PageSeen {
  readonly cards: readonly CardSeen[];
  readonly timeline: readonly string[];
  readonly error: string | null;
  readonly summary: string;
  /** Elements that hostile text would have created if it were not escaped. */
  readonly injected: number;
}

/** What the playground run saw, step by step. */
export interface PlaygroundSeen {
  readonly pageErrors: readonly string[];
  readonly requests: readonly string[];
  readonly examples: readonly string[];
  readonly loaded: PageSeen;
  readonly ruled: PageSeen;
  readonly withdrawn: PageSeen;
  readonly editedPolicy: PageSeen;
  readonly hostile: PageSeen;
  readonly badPolicy: PageSeen;
  readonly otherExample: PageSeen;
  readonly screenshots: readonly string[];
}

/** What the report run saw. */
export interface ReportSeen {
  readonly pageErrors: readonly string[];
  readonly requests: readonly string[];
  readonly scripts: number;
  readonly page: PageSeen;
  readonly title: string;
  readonly screenshots: readonly string[];
}

function seePage(page: Page): Promise<PageSeen> {
  return page.evaluate(() => {
    const text = (element: Dom) => (element?.innerText ?? element?.textContent)?.replace(/\s+/g, " ").trim() ?? "";
    const cards = [...(globalThis as Dom).document.querySelectorAll("article.call")].map((card: Dom) => ({
      id: card.getAttribute("data-call") ?? card.getAttribute("data-run") ?? "",
      outcome: [...card.classList].find((name: string) => name.startsWith("outcome-"))?.slice(8) ?? "",
      badge: text(card.querySelector(".badge")),
      text: text(card),
      button: card.querySelector("button")?.textContent ?? null,
    }));
    const timeline = [...(globalThis as Dom).document.querySelectorAll(".timeline > li")].map((step: Dom) =>
      `${[...step.classList].filter((name: string) => name.startsWith("trust-")).join(" ")} ${text(step)}`
    );
    const error = (globalThis as Dom).document.getElementById("error");
    return {
      cards,
      timeline,
      error: error && !error.hidden ? text(error) : null,
      summary: text((globalThis as Dom).document.querySelector(".summary")),
      injected:
        (globalThis as Dom).document.querySelectorAll("main img, main iframe, main script, [onerror], .pwned").length,
    };
  });
}

async function act(page: Page, action: () => Promise<void>): Promise<PageSeen> {
  const before = await page.evaluate(() => Number((globalThis as Dom).document.body.dataset.runs ?? 0));
  await action();
  await page.waitForFunction((runs) => Number((globalThis as Dom).document.body.dataset.runs ?? 0) > runs, before, {
    timeout: 10_000,
  });
  return seePage(page);
}

async function withPage<T>(profile: string, run: (page: Page, errors: string[], requests: string[]) => Promise<T>) {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS],
    viewport: { width: 1280, height: 900 },
  });
  try {
    const page = context.pages()[0] ?? await context.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    page.on("request", (request) => requests.push(request.url()));
    return await run(page, errors, requests);
  } finally {
    await context.close();
  }
}

async function drivePlayground(url: string, profile: string, prefix: string): Promise<PlaygroundSeen> {
  return await withPage(profile, async (page, pageErrors, requests) => {
    const screenshots: string[] = [];
    const shoot = async (name: string) => {
      const path = `${prefix}-${name}.png`;
      await page.screenshot({ path, fullPage: true });
      screenshots.push(path);
    };
    await page.goto(url);
    await page.waitForFunction(() =>
      (globalThis as Dom).document.body.dataset.ready === "true" &&
      Number((globalThis as Dom).document.body.dataset.runs) > 0
    );
    const examples = await page.$$eval(
      "#example option",
      (options) => options.map((option) => option.textContent ?? ""),
    );
    const loaded = await seePage(page);
    await shoot("1-loaded");
    const ruled = await act(page, () => page.click('button.apply-ruling[data-call="call_send_alice"]'));
    await shoot("2-ruling-applied");
    const withdrawn = await act(page, () => page.click('button.withdraw-ruling[data-call="call_send_alice"]'));
    const policy = await page.inputValue("#policy");
    await page.fill(
      "#policy",
      // The inbox is read with no argument the user named, so the user is asked only once the policy opts out of
      // delegation-aware escalation (SECURITY.md, "Library defaults").
      policy.replace("to: {require: trusted, on_violation: block}", "to: {require: trusted, on_violation: confirm}")
        .replace("  on_tainted: confirm\ntools:", "  on_tainted: confirm\n  confirm_untrusted_from: any\ntools:"),
    );
    const editedPolicy = await act(page, () => page.click("#run"));
    await shoot("3-policy-edited");
    const conversation = await page.inputValue("#conversation");
    const hostileCall = JSON.stringify({
      type: "call",
      id: 'x"><img src=x onerror="document.body.classList.add(\'pwned\')">',
      tool: "send_email",
      args: {
        to: "<script>document.body.classList.add('pwned')</script>@attacker.example",
        body: "\u001b[32mALLOW",
      },
    });
    await page.fill("#conversation", `${conversation.trimEnd()}\n${hostileCall}\n`);
    const hostile = await act(page, () => page.click("#run"));
    await shoot("4-hostile-call");
    await page.fill(
      "#policy",
      "version: 1\ntools:\n  send_email:\n    args:\n      to: {alow: ['<b class=pwned>x</b>']}\n",
    );
    const badPolicy = await act(page, () => page.click("#run"));
    await shoot("5-bad-policy");
    const other = examples.find((name: string) => name.startsWith("hijack.pab.jsonl with provenance")) ?? examples[1];
    await page.selectOption("#example", other);
    const otherExample = await act(page, () => page.click("#load"));
    return {
      pageErrors,
      requests,
      examples,
      loaded,
      ruled,
      withdrawn,
      editedPolicy,
      hostile,
      badPolicy,
      otherExample,
      screenshots,
    };
  });
}

async function driveReport(url: string, profile: string, prefix: string): Promise<ReportSeen> {
  return await withPage(profile, async (page, pageErrors, requests) => {
    await page.goto(url);
    const path = `${prefix}-report.png`;
    await page.screenshot({ path, fullPage: true });
    return {
      pageErrors,
      requests,
      scripts: await page.evaluate(() => (globalThis as Dom).document.scripts.length),
      page: await seePage(page),
      title: await page.title(),
      screenshots: [path],
    };
  });
}

/** What the README's page showed. */
export interface SnippetSeen {
  readonly pageErrors: readonly string[];
  readonly requests: readonly string[];
  readonly decision: string;
}

async function driveSnippet(url: string, profile: string, prefix: string): Promise<SnippetSeen> {
  return await withPage(profile, async (page, pageErrors, requests) => {
    await page.goto(url);
    await page.waitForFunction(() =>
      (globalThis as Dom).document.getElementById("decision")?.textContent !== "deciding..."
    );
    await page.screenshot({ path: `${prefix}-snippet.png` });
    const decision = await page.evaluate(() => (globalThis as Dom).document.getElementById("decision").textContent);
    return { pageErrors, requests, decision };
  });
}

if (import.meta.main) {
  const [mode, url, profile, prefix] = Deno.args;
  const drivers: Record<string, (url: string, profile: string, prefix: string) => Promise<unknown>> = {
    playground: drivePlayground,
    report: driveReport,
    snippet: driveSnippet,
  };
  if (!Object.hasOwn(drivers, mode) || !url || !profile || !prefix) {
    console.error(
      "Usage: deno run -A tests/_playground_driver.ts playground|report|snippet <url> <profile-dir> <prefix>",
    );
    Deno.exit(2);
  }
  console.log(JSON.stringify(await drivers[mode](url, profile, prefix)));
}
