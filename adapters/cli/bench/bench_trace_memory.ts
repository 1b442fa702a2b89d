/**
 * `pab bench trace-memory`: how much memory `pab check` needs for a large
 * trace, measured on a synthetic trace written under /tmp/pab.
 *
 * @module
 */
import type { Bench } from "./benchmark.ts";
import { checkCommand } from "../commands/check.ts";
import { createFileExclusively } from "../io/create_file.ts";
import { defineCommand } from "../shell/define_command.ts";
import { denoIo } from "../io/io.ts";
import { readInputChunks } from "../io/read_input.ts";
import { openPabTrace, textLines } from "../../trace/mod.ts";
import { EMAIL_TRACE_POLICY, writeEmailTrace } from "./email_trace.ts";

const TARGET_MB = 200;
const WORDS = "the quarterly report revenue is final please forward to bob at corp example thanks meeting tomorrow"
  .split(" ");

/** The trace-memory benchmark. */
export const traceMemoryBench: Bench = defineCommand({
  name: "bench trace-memory",
  summary: `Peak memory of pab check on a large synthetic trace (target: ${TARGET_MB} MB for 50 MB)`,
  description: `Write a synthetic pab trace of about --mb megabytes under /tmp/pab (calls to an
untrusted read_inbox tool, each with about 5 KB of text; with --emails, a
realistic inbox: pages of e-mails as JSON with many distinct addresses, links
and numbers, trusted but for strangers' fields, and replies), replay it with
pab check in this process, sample the resident set size every 20 ms, and
print the peak. The files are removed afterwards.`,
  options: {
    mb: { type: "integer", value: "N", default: 50, description: "The trace's size in megabytes" },
    json: { type: "boolean", description: 'Print {"schemaVersion":1,"traceBytes","calls","peakRssBytes","seconds"}' },
    emails: {
      type: "boolean",
      description: "The realistic e-mail trace (the one tests/bench/email_trace.ts writes) instead",
    },
    "read-only": {
      type: "boolean",
      description: "Only read and check the trace, line by line, with no guard: the reader's own share",
    },
  },
  exitCodes: `0 the peak stayed within ${TARGET_MB} MB per 50 MB of trace; 1 it did not; 2 bad usage or I/O.`,
  async run(input, io) {
    const folder = `/tmp/pab/trace-memory-${crypto.randomUUID()}`;
    const policy = `${folder}/policy.yaml`;
    const trace = `${folder}/trace.jsonl`;
    try {
      const emails = input.flag("emails");
      await createFileExclusively(
        policy,
        emails ? EMAIL_TRACE_POLICY : "version: 1\ntools:\n  read_inbox: {output: untrusted, on_tainted: allow}\n",
      );
      const { bytes, calls } = await (emails ? writeEmailTrace : writeTrace)(trace, input.integer("mb")! * 1e6);
      let peak = Deno.memoryUsage().rss;
      const timer = setInterval(() => peak = Math.max(peak, Deno.memoryUsage().rss), 20);
      const started = performance.now();
      const quiet = { ...denoIo(), stdout: { write: () => Promise.resolve() } };
      const code = input.flag("read-only")
        ? await readOnly(trace, bytes + 1)
        : await checkCommand.run(["-q", "--max-bytes", String(bytes + 1), "-p", policy, trace], quiet);
      const seconds = (performance.now() - started) / 1000;
      clearInterval(timer);
      peak = Math.max(peak, Deno.memoryUsage().rss);
      if (code === 2) return 2;
      const within = peak <= TARGET_MB * 1e6 * Math.max(1, bytes / 50e6);
      await io.stdout.write(
        input.flag("json")
          ? `${JSON.stringify({ schemaVersion: 1, traceBytes: bytes, calls, peakRssBytes: peak, seconds })}\n`
          : `trace-memory${emails ? " (e-mails)" : ""}${input.flag("read-only") ? " (read only)" : ""}: ${
            (bytes / 1e6).toFixed(1)
          } MB trace, ${calls} calls: peak RSS ${Math.round(peak / 1e6)} MB in ${
            seconds.toFixed(1)
          } s (target ${TARGET_MB} MB per 50 MB: ${within ? "met" : "missed"})\n`,
      );
      return within ? 0 : 1;
    } finally {
      await Deno.remove(folder, { recursive: true }).catch(() => {});
    }
  },
});

/** Read and check the trace line by line, as pab check does, without replaying it. */
async function readOnly(path: string, maxBytes: number): Promise<number> {
  const trace = await openPabTrace(textLines(readInputChunks(path, denoIo(), { what: "trace", maxBytes })), {
    source: path,
  });
  for await (const _ of trace.events);
  return 0;
}

async function writeTrace(path: string, size: number): Promise<{ bytes: number; calls: number }> {
  const header = '{"pab":"trace","schemaVersion":1,"id":"trace-memory"}\n' +
    '{"type":"user","content":"Summarise my inbox for alice@corp.example"}\n';
  await createFileExclusively(path, header);
  const file = await Deno.open(path, { append: true });
  const encoder = new TextEncoder();
  // One buffer for every pair of lines (each under 16 KB of ASCII), so that writing the trace leaves little garbage
  // behind to count against pab check's peak.
  const buffer = new Uint8Array(64 * 1024);
  let bytes = header.length;
  let calls = 0;
  try {
    while (bytes < size) {
      let text = "";
      for (let w = 0; w < 800; w++) {
        text += WORDS[(calls * 7 + w * 13) % WORDS.length] + (w % 17 === 0 ? ` item${calls}-${w} ` : " ");
      }
      const { written } = encoder.encodeInto(
        `${JSON.stringify({ type: "call", id: `c${calls}`, tool: "read_inbox", args: { page: calls } })}\n` +
          `${JSON.stringify({ type: "result", id: `c${calls}`, content: text })}\n`,
        buffer,
      );
      for (let at = 0; at < written;) at += await file.write(buffer.subarray(at, written));
      bytes += written;
      calls++;
    }
  } finally {
    file.close();
  }
  return { bytes, calls };
}
