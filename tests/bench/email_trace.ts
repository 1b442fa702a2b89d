/**
 * Write a realistic pab trace of e-mails for measuring `pab check`'s memory
 * (see `adapters/cli/bench/email_trace.ts`; `pab bench trace-memory --emails`
 * writes the same trace and measures it in one step):
 *
 *   deno run --allow-read --allow-write=/tmp tests/bench/email_trace.ts --mb 50 --out /tmp/pab/emails
 *   /usr/bin/time -v deno task pab check -q --max-bytes 99999999 \
 *     -p /tmp/pab/emails/policy.yaml /tmp/pab/emails/trace.jsonl   # "Maximum resident set size"
 *
 * Deterministic (seeded). Prints the trace's size and its calls.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { EMAIL_TRACE_POLICY, writeEmailTrace } from "../../adapters/cli/bench/email_trace.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { mb: { type: "string", default: "50" }, out: { type: "string", default: "/tmp/pab/emails" } },
});
await Deno.mkdir(values.out!, { recursive: true });
await Deno.writeTextFile(`${values.out}/policy.yaml`, EMAIL_TRACE_POLICY);
await Deno.remove(`${values.out}/trace.jsonl`).catch(() => {});
const { bytes, calls } = await writeEmailTrace(`${values.out}/trace.jsonl`, Number(values.mb) * 1e6);
console.log(`${(bytes / 1e6).toFixed(1)} MB, ${calls} calls, written to ${values.out}/trace.jsonl`);
