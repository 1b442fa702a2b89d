/**
 * A realistic pab trace of e-mails, for measuring `pab check`'s memory: an
 * inbox searched page by page, each page a JSON list of e-mails with many
 * distinct senders, recipients and people named in the bodies (about one new
 * address per 150 bytes), links, phone numbers, amounts and dates, over a
 * vocabulary of thousands of words; every tenth call sends an e-mail to
 * someone an earlier page named. Deterministic (seeded).
 *
 * @module
 */
import { createFileExclusively } from "../io/create_file.ts";
import { seededRandom } from "./seeded_random.ts";

/** The policy the e-mail trace is checked against: search results are trusted but for strangers' fields. */
export const EMAIL_TRACE_POLICY = "version: 1\ntools:\n" +
  "  search_emails: {output: trusted, on_tainted: allow, untrusted_fields: [subject, body, from]}\n" +
  "  send_email: {output: trusted, on_tainted: confirm, args: {to: {require: trusted}}}\n";

/**
 * Write an e-mail trace of about `size` bytes to a new file at `path` (see the module doc); returns its size and
 * how many calls it holds.
 */
export async function writeEmailTrace(path: string, size: number): Promise<{ bytes: number; calls: number }> {
  const header = `${JSON.stringify({ pab: "trace", schemaVersion: 1, id: "email-trace" })}\n` +
    `${JSON.stringify({ type: "user", content: "Go through my inbox and answer what needs an answer" })}\n`;
  await createFileExclusively(path, header);
  const mail = emailWriter();
  const file = await Deno.open(path, { append: true });
  const encoder = new TextEncoder();
  // One buffer for every line (each well under 64 KB), so that writing the trace leaves little garbage behind to
  // count against pab check's peak.
  const buffer = new Uint8Array(256 * 1024);
  const write = async (line: unknown) => {
    const { written } = encoder.encodeInto(`${JSON.stringify(line)}\n`, buffer);
    for (let at = 0; at < written;) at += await file.write(buffer.subarray(at, written));
    return written;
  };
  let bytes = header.length;
  let calls = 0;
  try {
    while (bytes < size) {
      const id = `c${calls++}`;
      if (calls % 10 === 0 && mail.seen.length) {
        bytes += await write({ type: "call", id, tool: "send_email", args: mail.reply() });
        bytes += await write({ type: "result", id, content: "sent" });
        continue;
      }
      const emails = mail.page(calls);
      bytes += await write({ type: "call", id, tool: "search_emails", args: { query: mail.word(), page: calls } });
      bytes += await write({ type: "result", id, content: JSON.stringify(emails) });
    }
  } finally {
    file.close();
  }
  return { bytes, calls };
}

/** The e-mails' vocabulary and people, made afresh for each trace (and let go with it). */
function emailWriter() {
  const random = seededRandom(0xe4a11);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const SYLLABLES = "ka lo mi ne su ta ri po ve da gu fe zi ho ba ny qua tre sol mar den vik ash lun".split(" ");
  const word = () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(SYLLABLES)).join("");
  const VOCABULARY = Array.from({ length: 6000 }, word);
  const FIRST = Array.from({ length: 800 }, word);
  const LAST = Array.from({ length: 3000 }, word);
  const COMPANIES = Array.from({ length: 4000 }, word);
  const seen: string[] = [];
  const person = (): { name: string; address: string } => {
    if (seen.length && random() < 0.35) {
      const address = pick(seen);
      return { name: address.split("@")[0].replace(".", " "), address };
    }
    const [first, last] = [pick(FIRST), pick(LAST)];
    const address = `${first}.${last}${Math.floor(random() * 100)}@${pick(COMPANIES)}.example`;
    seen.push(address);
    if (seen.length > 50_000) seen.splice(0, 25_000);
    return { name: `${first} ${last}`, address };
  };
  const body = (): string => {
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
  };
  return {
    seen,
    word: () => pick(VOCABULARY),
    reply: () => ({ to: pick(seen), body: body().slice(0, 300) }),
    page: (calls: number) =>
      Array.from({ length: 2 + Math.floor(random() * 3) }, (_, n) => {
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
      }),
  };
}
