/**
 * The `pab` command: `deno task pab COMMAND` runs it with the permissions it
 * needs (`--allow-net=localhost --allow-read --allow-write=/tmp/pab`). Only
 * the command being run is loaded (see `COMMANDS` in adapters/cli/shell/run_cli.ts).
 *
 * @module
 */
import config from "./deno.json" with { type: "json" };
import { denoIo, runCli } from "./adapters/cli/mod.ts";

if (import.meta.main) {
  Deno.exitCode = await runCli(Deno.args, denoIo(), { version: config.version });
}
