/**
 * Make `harvest/_tld_filter.ts`, the xor filter of delegated top-level
 * domains that tells a bare host (`evil.shop`) from a name in code
 * (`error.message`), from the ICANN section of the Public Suffix List.
 *
 *   deno run --allow-read adapters/build/tld_filter.ts [/usr/share/publicsuffix/public_suffix_list.dat] > harvest/_tld_filter.ts
 *
 * @module
 */
import { domainToASCII } from "node:url";
import { writeTldFilter } from "../../harvest/mod.ts";

/** The top-level domains of the list's ICANN section, in IDNA ASCII form, sorted. */
export function icannTopLevelDomains(list: string): string[] {
  const tlds = new Set<string>();
  let icann = false;
  for (const raw of list.split("\n")) {
    const line = raw.trim();
    if (line.includes("===BEGIN ICANN DOMAINS===")) icann = true;
    if (line.includes("===END ICANN DOMAINS===")) icann = false;
    if (!icann || !line || line.startsWith("//")) continue;
    const rule = line.replace(/^[*!]\.?/, "");
    if (rule.includes(".")) continue;
    const ascii = domainToASCII(rule).toLowerCase();
    if (ascii) tlds.add(ascii);
  }
  return [...tlds].sort();
}

/** The module's text for a list, with how it was made. */
export async function tldFilterModule(list: string, path: string): Promise<string> {
  const tlds = icannTopLevelDomains(list);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(list)));
  const { seed, text } = writeTldFilter(tlds);
  const sha256 = [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `// Made by adapters/build/tld_filter.ts from ${path.split("/").at(-1)}: ${tlds.length} top-level domains.\n` +
    `// Do not edit. The list's sha256: ${sha256}\n` +
    `/** The seed the filter's hashes start from. */\nexport const TLD_FILTER_SEED = ${seed};\n` +
    `/** The delegated top-level domains as an xor filter (see top_level_domains.ts). */\n` +
    `export const TLD_FILTER =\n  "${text}";\n`;
}

if (import.meta.main) {
  const path = Deno.args[0] ?? "/usr/share/publicsuffix/public_suffix_list.dat";
  console.log((await tldFilterModule(await Deno.readTextFile(path), path)).trimEnd());
}
