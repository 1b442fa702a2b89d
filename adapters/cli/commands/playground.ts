/**
 * `pab playground [--port N] [--bundle FILE]`: serve the playground on
 * localhost.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { loadExamples, servePlayground } from "../../playground/mod.ts";
import { IoError, UsageError } from "../shell/cli_error.ts";
import type { Command } from "../shell/command.ts";
import { fileProblem, type Io } from "../io/io.ts";
import { type CommandInput, defineCommand } from "../shell/define_command.ts";
import { stopSignal } from "../io/stop_signal.ts";

const DEFAULT_PORT = 8787;
const DEFAULT_BUNDLE = new URL("../../../dist/pab.min.js", import.meta.url);
const EXAMPLES = new URL("../../../traces/examples/", import.meta.url);

/**
 * `pab playground`: serve the page until the process is stopped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { playgroundCommand } from "./playground.ts";
 * import { memoryIo } from "../io/memory_io.ts";
 * const memory = memoryIo();
 * assert.equal(await playgroundCommand.run(["--port", "http"], memory.io), 2);
 * assert.match(memory.stderr(), /--port must be a whole number from 0 to 65535, not "http"/);
 * ```
 */
export const playgroundCommand: Command = defineCommand({
  name: "playground",
  summary: "Serve a page on localhost to try policies and conversations, and apply rulings",
  description: `Serve the playground on http://localhost:N/ (offline: the page, the bundle and
the examples all come from this process). Edit a policy and a conversation, or
load an example from traces/examples/, and see every call's decision, the label
over time, the vouching sources and the way to yes; apply a ruling to a call and
see it decided again. Build the bundle first with \`deno task bundle\`.`,
  options: {
    port: { type: "string", value: "N", description: `The port (default ${DEFAULT_PORT}; 0 picks a free one)` },
    bundle: { type: "string", value: "FILE", description: "The ESM bundle the page imports (default dist/pab.min.js)" },
  },
  notes: "Prints the page's address on stdout and serves until stopped (Ctrl-C or SIGTERM).",
  exitCodes: "0 stopped; 2 bad usage, a missing bundle, or a port that cannot be used.",
  run: (input, io) => playground(input, io),
});

async function playground(input: CommandInput, io: Io): Promise<number> {
  const portText = input.string("port") ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535, not "${portText}"`, "playground");
  }
  const bundlePath = input.string("bundle") ?? fileURLToPath(DEFAULT_BUNDLE);
  let bundle: string;
  try {
    bundle = await io.readTextFile(bundlePath);
  } catch (error) {
    throw new IoError(
      `Cannot start the playground: cannot read the bundle "${bundlePath}": ${fileProblem(error)}; ` +
        "build it with `deno task bundle`, or pass --bundle FILE",
    );
  }
  let examples;
  try {
    examples = await loadExamples(EXAMPLES);
  } catch (error) {
    throw new IoError(`Cannot start the playground: cannot read the examples: ${fileProblem(error)}`);
  }
  let server;
  const stop = stopSignal();
  try {
    server = servePlayground({
      port,
      bundle,
      examples,
      signal: stop.signal,
      onListen: (url) => void io.stdout.write(`pab playground: ${url} (Ctrl-C stops it)\n`),
    });
  } catch (error) {
    stop.dispose();
    throw new IoError(`Cannot start the playground on localhost:${port}: ${fileProblem(error)}`);
  }
  await server.finished.finally(() => stop.dispose());
  return 0;
}
