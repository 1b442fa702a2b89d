/**
 * `pab demo`: the e-mail hijack, end to end and for real.
 *
 * @module
 */
import { formatTrace } from "../../trace/mod.ts";
import { IoError, UnsafePathError } from "../shell/cli_error.ts";
import type { Command } from "../shell/command.ts";
import { DEMO_POLICY } from "../demo/demo_policy.ts";
import { type MockServices, startMockServices } from "../demo/mock_services.ts";
import { renderDemo } from "../demo/render_demo.ts";
import { runDemo } from "../demo/run_demo.ts";
import { type CommandInput, defineCommand } from "../shell/define_command.ts";
import { escapeControl } from "../io/escape_text.ts";
import { fileProblem, type Io } from "../io/io.ts";
import { styleFor } from "../io/style.ts";

/**
 * `pab demo`: run the hijack without and with pab against a mock server.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { demoCommand } from "./demo.ts";
 * import { memoryIo } from "../io/memory_io.ts";
 * const memory = memoryIo();
 * assert.equal(await demoCommand.run(["--print-policy"], memory.io), 0);
 * assert.ok(memory.stdout().includes("send_email:"));
 * ```
 */
export const demoCommand: Command = defineCommand({
  name: "demo",
  summary: "Run the e-mail hijack against a mock inbox and web page, without and with pab",
  description: `The e-mail hijack, end to end and for real. pab starts a mock server on
localhost that serves an inbox and an intranet page, each planting an
attacker's instruction, and a mail server's outbox. A scripted agent that
obeys every instruction it reads fetches them over HTTP and sends e-mail.

It runs twice: without pab (the attacker's e-mails reach the outbox), and with
pab and the demo policy (the hijacked send_email calls are blocked, each with
its reasons; the summary the user asked for goes to alice@corp.example once
the user confirms it). Then it prints both runs side by side.`,
  options: {
    record: {
      type: "string",
      value: "FILE",
      description: "Also save the run with pab as a pab trace, in a new file. Replay it with\n" +
        "pab check --policy traces/examples/demo.policy.yaml FILE",
    },
    "print-policy": { type: "boolean", description: "Print the demo policy and exit" },
  },
  notes: `Needs --allow-net=localhost, and for --record, write access to FILE
(deno task pab grants localhost, and writes only under /tmp/pab). pab creates
FILE anew: it refuses a file that exists and a path through a symbolic link.`,
  exitCodes: `0 pab stopped every hijacked call and let the legitimate one
through; 1 it did not; 2 bad usage, the server could not start, or FILE could
not be written.`,
  run: demo,
});

async function demo(input: CommandInput, io: Io): Promise<number> {
  if (input.flag("print-policy")) {
    await io.stdout.write(DEMO_POLICY);
    return 0;
  }
  const record = input.string("record");
  const services = startServices();
  try {
    const report = await runDemo(services.url);
    const rendered = renderDemo(report, services.url, styleFor(io));
    if (record !== undefined) await saveTrace(record, formatTrace(report.trace), io);
    await io.stdout.write(rendered.text);
    if (record !== undefined) {
      await io.stderr.write(
        `recorded the run with pab in ${escapeControl(record)}; replay it with:\n` +
          `  pab check --policy traces/examples/demo.policy.yaml ${escapeControl(record)}\n`,
      );
    }
    return rendered.ok ? 0 : 1;
  } finally {
    await services.close();
  }
}

function startServices(): MockServices {
  try {
    return startMockServices();
  } catch (error) {
    const refused = error instanceof Error && error.name === "NotCapable";
    throw new IoError(
      `Cannot start the demo's mock server on localhost: ${
        refused ? "Deno's permission sandbox refused network access" : fileProblem(error)
      } (${refused ? "run with --allow-net=localhost; deno task pab grants it" : "check that localhost is available"})`,
    );
  }
}

async function saveTrace(path: string, text: string, io: Io): Promise<void> {
  try {
    await io.writeTextFile(path, text);
  } catch (error) {
    if (error instanceof UnsafePathError) throw error;
    const name = error instanceof Error ? error.name : "";
    const details = name === "NotCapable"
      ? [
        "this run may write only where its --allow-write flag allows, and deno task pab allows only /tmp/pab",
        `fix: record under /tmp/pab instead (pab demo --record /tmp/pab/demo.jsonl), or run cli.ts with --allow-write=${path}`,
      ]
      : name === "NotFound"
      ? [
        "its directory does not exist",
        "fix: create the directory, or record under /tmp/pab (--record /tmp/pab/demo.jsonl)",
      ]
      : ["fix: check the path, or record under /tmp/pab (--record /tmp/pab/demo.jsonl)"];
    throw new IoError(
      `Cannot write the demo trace to "${path}": ${fileProblem(error)}\n${
        details.map((line) => `  ${line}`).join("\n")
      }`,
    );
  }
}
