/**
 * Write a realistic pab trace of e-mails for measuring `pab check`'s memory:
 * an inbox searched page by page, each page a JSON list of e-mails with many
 * distinct senders, recipients and people named in the bodies (about one new
 * address per 150 bytes), links, phone numbers, amounts and dates, over a
 * vocabulary of thousands of words; every tenth call sends an e-mail to
 * someone an earlier page named.
 *
 *   deno run --allow-write=/tmp tests/bench/email_trace.ts --mb 50 --out /tmp/pab/emails
 *   /usr/bin/time -v deno run --allow-read cli.ts check -q --max-bytes 99999999 \
 *     -p /tmp/pab/emails/policy.yaml /tmp/pab/emails/trace.jsonl   # "Maximum resident set size"
 *
 * Deterministic (seeded). Prints the trace's size, its calls and its distinct addresses.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { seededRandom } from "../../adapters/cli/bench/seeded_random.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { mb: { type: "string", default: "50" }, out: { type: "string", default: "/tmp/pab/emails" } },
});
const size = Number(values.mb) * 1e6;
const random = seededRandom(0xe4a11);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];

const SYLLABLES = "ka lo mi ne su ta ri po ve da gu fe zi ho ba ny qua tre sol mar den vik ash lun".split(" ");
const word = () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(SYLLABLES)).join("");
const VOCABULARY = Array.from({ length: 6000 }, word);
const FIRST = Array.from({ length: 800 }, word);
const LAST = Array.from({ length: 3000 }, word);
const COMPANIES = Array.from({ length: 4000 }, word);

const seen: string[] = [];
function person(): { name: string; address: string } {
  if (seen.length && random() < 0.35) {
    const address = pick(seen);
    return { name: address.split("@")[0].replace(".", " "), address };
  }
  const [first, last] = [pick(FIRST), pick(LAST)];
  const address = `${first}.${last}${Math.floor(random() * 100)}@${pick(COMPANIES)}.example`;
  seen.push(address);
  if (seen.length > 50_000) seen.splice(0, 25_000);
  return { name: `${first} ${last}`, address };
}

function body(): string {
  const parts: string[] = [];
  const words = 120 + Math.floor(random() * 280);
  for (let w = 0; w < words; w++) {
    const roll = random();
    if (roll < 0.015) parts.push(person().address);
    else if (roll < 0.02) parts.push(`https://${pick(COMPANIES)}.example/${word()}/${Math.floor(random() * 1e6)}`);
    else if (roll < 0.025) {
      parts.push(`+1 555 ${100 + Math.floor(random() * 900)} ${1000 + Math.floor(random() * 9000)}`);
    } else if (roll < 0.035) parts.push(`$${(random() * 10000).toFixed(2)}`);
    else if (roll < 0.04) parts.push(`2026-${1 + Math.floor(random() * 12)}-${1 + Math.floor(random() * 28)}`);
    else parts.push(pick(VOCABULARY));
    if (random() < 0.08) parts[parts.length - 1] += ".";
  }
  return parts.join(" ");
}

await Deno.mkdir(values.out!, { recursive: true });
await Deno.writeTextFile(
  `${values.out}/policy.yaml`,
  "version: 1\ntools:\n  search_emails: {output: trusted, on_tainted: allow, untrusted_fields: [subject, body, from]}\n" +
    "  send_email: {output: trusted, on_tainted: confirm, args: {to: {require: trusted}}}\n",
);
const file = await Deno.open(`${values.out}/trace.jsonl`, { write: true, create: true, truncate: true });
const encoder = new TextEncoder();
const write = async (line: unknown) => {
  const bytes = encoder.encode(`${JSON.stringify(line)}\n`);
  for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
  return bytes.length;
};
let bytes = await write({ pab: "trace", schemaVersion: 1, id: "email-trace" });
bytes += await write({ type: "user", content: "Go through my inbox and answer what needs an answer" });
let calls = 0;
try {
  while (bytes < size) {
    const id = `c${calls++}`;
    if (calls % 10 === 0 && seen.length) {
      bytes += await write({
        type: "call",
        id,
        tool: "send_email",
        args: { to: pick(seen), body: body().slice(0, 300) },
      });
      bytes += await write({ type: "result", id, content: "sent" });
      continue;
    }
    const emails = Array.from({ length: 2 + Math.floor(random() * 3) }, (_, n) => {
      const from = person();
      return {
        id: `${calls}-${n}`,
        from: `${from.name} <${from.address}>`,
        to: Array.from({ length: 1 + Math.floor(random() * 3) }, () => person().address),
        cc: random() < 0.4 ? [person().address] : [],
        shared_with: Object.fromEntries([[person().address, "read"]]),
        subject: Array.from({ length: 6 }, () => pick(VOCABULARY)).join(" "),
        date: `2026-${1 + Math.floor(random() * 12)}-${1 + Math.floor(random() * 28)}T09:00:00Z`,
        body: body(),
      };
    });
    bytes += await write({ type: "call", id, tool: "search_emails", args: { query: pick(VOCABULARY), page: calls } });
    bytes += await write({ type: "result", id, content: JSON.stringify(emails) });
  }
} finally {
  file.close();
}
console.log(`${(bytes / 1e6).toFixed(1)} MB, ${calls} calls, written to ${values.out}/trace.jsonl`);
