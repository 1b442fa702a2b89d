/**
 * Doc examples assert, and print nothing: no `console.log` in a JSDoc example
 * (`deno task test` runs every example, and printed output there is noise
 * that can never fail). Checked for the folders listed here.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);
/** The folders whose examples are checked; extend as each folder's examples are converted. */
const CHECKED = [
  "adapters/cli/",
  "adapters/html/",
  "adapters/playground/",
  "adapters/build/",
  "core/",
  "guard/",
  "adapters/openai/",
  "adapters/office/",
  "adapters/agentdojo/",
  "adapters/mcp/",
  "adapters/ai_sdk/",
  "adapters/openai_agents/",
  "adapters/store/",
  "adapters/serve/",
  "adapters/audit/",
  "adapters/claude_code/",
];

async function* walk(folder: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(folder)) {
    const url = new URL(entry.isDirectory ? `${entry.name}/` : entry.name, folder);
    if (entry.isDirectory) yield* walk(url);
    else if (entry.name.endsWith(".ts")) yield url;
  }
}

Deno.test("JSDoc examples in the checked folders print nothing", async () => {
  const printing: string[] = [];
  const files = [new URL("cli.ts", ROOT), new URL("mod.ts", ROOT)];
  for (const folder of CHECKED) for await (const file of walk(new URL(folder, ROOT))) files.push(file);
  for (const file of files) {
    const text = await Deno.readTextFile(file);
    for (const block of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
      if (/^\s*\*.*console\.(log|info|error|warn|table|dir)\(/m.test(block[0])) {
        printing.push(`${file.pathname.slice(ROOT.pathname.length)}: ${block[0].split("\n")[1]?.trim()}`);
      }
    }
  }
  assert.deepEqual(printing, []);
});
