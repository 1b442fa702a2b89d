import assert from "node:assert/strict";
import { parsePolicy } from "../mod.ts";

const ROOT = new URL("../", import.meta.url);
const readme = await Deno.readTextFile(new URL("README.md", ROOT));

Deno.test("README starts with exactly the two set-up commands", () => {
  const lines = readme.split("\n").slice(0, 4);
  assert.equal(lines[0], "```sh");
  assert.match(lines[1], /^npx -y deno@2\.9\.6 task start\b/);
  assert.match(lines[2], /^npx -y deno@2\.9\.6 task test\b/);
  assert.equal(lines[3], "```");
});

Deno.test("README's complete example policy is the file in traces/examples, and it loads", async () => {
  const file = await Deno.readTextFile(new URL("traces/examples/complete.policy.yaml", ROOT));
  assert.ok(
    readme.includes("```yaml\n" + file + "```"),
    "the README block must equal traces/examples/complete.policy.yaml",
  );
  const policy = parsePolicy(file, { source: "complete.policy.yaml" });
  assert.deepEqual(Object.keys(policy.approvers), ["legal", "manager"]);
  assert.deepEqual(Object.keys(policy.casts), ["wiki_search"]);
});

Deno.test("README's office table is what the office benchmark prints", async () => {
  const { formatOfficeTable, runOfficeBench } = await import("../adapters/office/mod.ts");
  const dedent = (text: string) => text.split("\n").map((line) => line.trim()).join("\n");
  assert.ok(dedent(readme).includes(dedent(formatOfficeTable(await runOfficeBench()))));
});

Deno.test("README documents every policy key the loader knows", async () => {
  const { KNOWN_KEYS } = await import("../guard/policy/_schema.ts");
  const undocumented = KNOWN_KEYS.filter((key) => !readme.includes(key));
  assert.deepEqual(undocumented, []);
});

Deno.test("README lists every error code pab raises", async () => {
  const codes = new Set<string>();
  for (const folder of ["core", "guard", "adapters"]) {
    for await (const file of walk(new URL(`${folder}/`, ROOT))) {
      for (const match of (await Deno.readTextFile(file)).matchAll(/"(ERR_[A-Z_]+)"/g)) codes.add(match[1]);
    }
  }
  assert.ok(codes.size >= 9, [...codes].join(", "));
  assert.deepEqual([...codes].filter((code) => !readme.includes(`\`${code}\``)), []);
});

async function* walk(folder: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(folder)) {
    if (entry.name.startsWith(".")) continue;
    const url = new URL(entry.isDirectory ? `${entry.name}/` : entry.name, folder);
    if (entry.isDirectory) yield* walk(url);
    else if (entry.name.endsWith(".ts")) yield url;
  }
}
