/**
 * How many links and hosts the outward check finds in ordinary code and
 * documentation text, where nearly every dotted name is a file or a name in
 * code (`README.md`, `csv_writer.py`, `fx.convert()`), not a destination.
 *
 *   deno run --allow-read tests/bench/embedded_corpus.ts [--harvest PATH/harvest/mod.ts] [--psl FILE] [FILES...]
 *
 * Without files it reads this repository's Markdown and TypeScript (every
 * `.md` and `.ts` file under it). `--harvest` compares another checkout's
 * scanner on the same text (before/after). Prints, per kind of value found
 * (`url`, `link`, `host`, `email`), the number of distinct values, then the
 * distinct bare hosts (the kind where code names are mistaken for hosts) with
 * their counts, most frequent first. With `--psl` (the Public Suffix List,
 * e.g. Debian's `/usr/share/publicsuffix/public_suffix_list.dat`), it also
 * splits the distinct bare hosts into those under a top-level domain that
 * exists and those under none (certainly not hosts: false positives).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join, relative } from "node:path";

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: { harvest: { type: "string" }, psl: { type: "string" }, top: { type: "string", default: "40" } },
  allowPositionals: true,
});
const root = new URL("../../", import.meta.url).pathname;
const harvest = await import(
  values.harvest ? new URL(values.harvest, `file://${Deno.cwd()}/`).href : "../../harvest/mod.ts"
);
const files = positionals.length ? positionals : await repositoryFiles(root);

const kinds = new Map<string, Set<string>>();
const hosts = new Map<string, number>();
let characters = 0;
for (const file of files) {
  const text = await Deno.readTextFile(file);
  characters += text.length;
  for (const line of text.split("\n")) {
    for (const token of harvest.tokenize(line) as string[]) {
      const kind = /^(url|link|host|email):/.exec(token)?.[1];
      if (!kind) continue;
      if (!kinds.has(kind)) kinds.set(kind, new Set());
      kinds.get(kind)!.add(token);
      if (kind === "host") hosts.set(token, (hosts.get(token) ?? 0) + 1);
    }
  }
}
console.log(`${files.length} files, ${characters} characters`);
for (const kind of ["url", "link", "host", "email"]) console.log(`${kind}: ${kinds.get(kind)?.size ?? 0} distinct`);
if (values.psl) {
  const tlds = new Set(
    (await Deno.readTextFile(values.psl)).split("\n").map((line) => line.trim())
      .filter((line) => line && !line.startsWith("//") && !line.includes(".")).map((line) => line.replace(/^[*!]/, "")),
  );
  const real = [...hosts.keys()].filter((host) => tlds.has(host.slice(host.lastIndexOf(".") + 1)));
  console.log(`bare hosts under an existing top-level domain: ${real.length}; under none: ${hosts.size - real.length}`);
}
const ranked = [...hosts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
console.log(`bare hosts (top ${values.top}):`);
for (const [host, count] of ranked.slice(0, Number(values.top))) console.log(`  ${count}\t${host.slice(5)}`);

async function repositoryFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.name.startsWith(".") || entry.name === "node_modules" || entry.name === "dist") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory && !relative(root, path).startsWith("traces")) found.push(...await repositoryFiles(path));
    else if (entry.isFile && /\.(md|ts)$/.test(entry.name)) found.push(path);
  }
  return found.sort();
}
