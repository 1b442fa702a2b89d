/**
 * `pab audit`: verify, show and export the tamper-evident audit log.
 *
 * @module
 */
import { type AuditRecord, formatTimeline, toJsonl, verifyJsonl, verifyRecords } from "../audit/mod.ts";
import { openStore } from "../store/mod.ts";
import { IoError, UsageError } from "./cli_error.ts";
import type { Command } from "./command.ts";
import { fileProblem, type Io } from "./io.ts";
import { readHint } from "./read_input.ts";
import { parseArgs } from "./parse_args.ts";

const HELP = `Usage: pab audit verify FILE | --store PATH|URL [--json]
       pab audit show FILE | --store PATH|URL [--session ID]
       pab audit export --store PATH|URL [--session ID]

Every decision, ruling, reservation and effect of a session is an audit event
that carries the sha256 of the one before it (canonical JSON).

  verify  Check every chain; report the first broken link (exit 1) with its
          code: ERR_AUDIT_PARSE (a line is not a canonical record),
          ERR_AUDIT_HASH (a record was changed), ERR_AUDIT_LINK (a record was
          removed, added or moved)
  show    Print a readable timeline (control characters escaped)
  export  Print the chains as JSONL, one canonical record per line

Options:
      --store PATH|URL  Read the store of pab serve or pab hook (a Deno KV
                        file, or a remote KV URL with DENO_KV_ACCESS_TOKEN set)
      --session ID      Only this session's chain
      --json            Print the verdict as JSON
`;

/**
 * The `pab audit` command.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { auditCommand } from "./audit.ts";
 * import { memoryIo } from "./memory_io.ts";
 * const memory = memoryIo({ files: { "audit.jsonl": "" } });
 * assert.equal(await auditCommand.run(["verify", "audit.jsonl"], memory.io), 0);
 * assert.equal(memory.stdout(), "ok: 0 records in 0 chains verify\n");
 * ```
 */
export const auditCommand: Command = {
  name: "audit",
  summary: "Verify, show or export the tamper-evident audit log",
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parseArgs(args, {
      store: { type: "string" },
      session: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    }, "audit");
    if (values.help) {
      await io.stdout.write(HELP);
      return 0;
    }
    const [action, file, ...rest] = positionals;
    if (action !== "verify" && action !== "show" && action !== "export") {
      throw new UsageError(
        action ? `unknown action "${action}" (use verify, show or export)` : "name an action: verify, show or export",
        "audit",
      );
    }
    if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`, "audit");
    const store = typeof values.store === "string" ? values.store : undefined;
    if ((file === undefined) === (store === undefined)) {
      throw new UsageError("give either a FILE or --store", "audit");
    }
    if (action === "export" && store === undefined) throw new UsageError("export reads a --store", "audit");
    const session = typeof values.session === "string" ? values.session : undefined;
    if (action === "verify") {
      const verdict = file !== undefined
        ? verifyJsonl(await readFile(file, io))
        : verifyRecords(await readStore(store!, session));
      if (values.json) {
        await io.stdout.write(`${JSON.stringify({ schemaVersion: 1, ...verdict })}\n`);
      } else if (verdict.ok) {
        await io.stdout.write(`ok: ${verdict.records} records in ${verdict.streams} chains verify\n`);
      } else {
        const { code, where, message } = verdict.problem;
        await io.stdout.write(`broken at ${where}: [${code}] ${message}\n`);
      }
      return verdict.ok ? 0 : 1;
    }
    let records: AuditRecord[];
    if (file !== undefined) {
      const text = await readFile(file, io);
      const verdict = verifyJsonl(text);
      if (!verdict.ok) {
        throw new IoError(
          `Cannot show "${file}": it does not verify at ${verdict.problem.where} (${verdict.problem.code}); run pab audit verify`,
        );
      }
      records = text.split("\n").filter(Boolean).map((line) => JSON.parse(line));
      if (session !== undefined) records = records.filter((record) => record.stream === session);
    } else {
      records = await readStore(store!, session);
    }
    await io.stdout.write(action === "show" ? formatTimeline(records) : toJsonl(records));
    return 0;
  },
};

async function readFile(path: string, io: Io): Promise<string> {
  try {
    return await io.readTextFile(path);
  } catch (error) {
    throw new IoError(`Cannot read audit log "${path}": ${fileProblem(error)} (${readHint(error)})`);
  }
}

async function readStore(location: string, session: string | undefined): Promise<AuditRecord[]> {
  if (!/^https?:\/\//i.test(location) && location !== ":memory:") {
    try {
      await Deno.stat(location);
    } catch (error) {
      throw new IoError(`Cannot read store "${location}": ${fileProblem(error)} (${readHint(error)})`);
    }
  }
  const store = await openStore(location);
  try {
    return await store.audit(session);
  } finally {
    store.close();
  }
}
