/**
 * What parseJson() costs over JSON.parse, in CPU time, on a 3 KB request body like `pab bench serve`'s
 * (`{"tool":"read_inbox","output":...}`): with no backslash (one `includes` scan), with backslashes in values only
 * (a `\n` per line: the scan and a walk of the keys), and with a key holding a backslash (the grammar reader reads the
 * text again: what a client pays, or makes pab pay, by sending one), and 120 small objects with backslashes in
 * values (the walk's worst case for its size). A/B in one process, alternating rounds.
 *
 * Run: `deno run --allow-sys tests/bench/parse_json_cost.ts [rounds]`
 *
 * @module
 */
import process from "node:process";
import { benchOutput } from "../../adapters/cli/bench/serve_load.ts";
import { parseJson } from "../../adapters/json/mod.ts";

const output = benchOutput(2, 7, 3000);
const BODIES: Record<string, string> = {
  "no backslash": JSON.stringify({ tool: "read_inbox", output }),
  "backslashes in values": JSON.stringify({ tool: "read_inbox", output: output.replaceAll(". ", ".\n") }),
  "a key with a backslash": JSON.stringify({ tool: "read_inbox", output, "meta\\": 1 }),
  "120 small objects, backslashes in values": JSON.stringify({
    tool: "list_files",
    output: Array.from({ length: 120 }, (_, i) => ({ name: `f${i}.txt`, path: `C:\\x\\${i}`, size: i })),
  }),
};
const READERS: Record<string, (text: string) => unknown> = { "JSON.parse": JSON.parse, parseJson };
const PER_ROUND = 2000;
const rounds = Number(Deno.args[0] ?? 10);

/** CPU microseconds (user + system) of `count` reads of `text`. */
function cpu(read: (text: string) => unknown, text: string, count: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) read(text);
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

for (const [name, body] of Object.entries(BODIES)) {
  const totals: Record<string, number> = { "JSON.parse": 0, parseJson: 0 };
  for (const read of Object.values(READERS)) cpu(read, body, PER_ROUND); // warm up
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? ["parseJson", "JSON.parse"] : ["JSON.parse", "parseJson"];
    for (const reader of order) totals[reader] += cpu(READERS[reader], body, PER_ROUND);
  }
  const per = (reader: string) => totals[reader] / (rounds * PER_ROUND);
  console.log(
    `${name} (${body.length} chars): JSON.parse ${per("JSON.parse").toFixed(2)} us, parseJson ` +
      `${per("parseJson").toFixed(2)} us (x${(per("parseJson") / per("JSON.parse")).toFixed(2)}, ` +
      `+${(per("parseJson") - per("JSON.parse")).toFixed(2)} us)`,
  );
}
console.log(`load average: ${Deno.loadavg().map((n) => n.toFixed(2)).join(" ")}`);
