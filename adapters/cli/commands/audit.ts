/**
 * `pab audit`: verify, show and export the tamper-evident audit log, and
 * anchor it with signed checkpoints.
 *
 * @module
 */
import {
  type AuditRecord,
  type AuditVerdict,
  checkpointOf,
  formatTimeline,
  signCheckpoint,
  toJsonl,
  verifyCheckpoint,
  verifyHeads,
  verifyInputs,
  verifyJsonl,
  verifyRecords,
} from "../../audit/mod.ts";
import { openStore } from "../../store/mod.ts";
import { escapeControl, escapeLines } from "../io/escape_text.ts";
import { CheckpointRefused, readAuditKey, readCheckpoint, writeAuditKey } from "../audit/audit_anchor.ts";
import { IoError, UsageError } from "../shell/cli_error.ts";
import type { Command } from "../shell/command.ts";
import { fileProblem, type Io } from "../io/io.ts";
import { readHint } from "../io/read_input.ts";
import { defineCommand } from "../shell/define_command.ts";
import { parseJson } from "../../json/mod.ts";

/**
 * The `pab audit` command.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { auditCommand } from "./audit.ts";
 * import { memoryIo } from "../io/memory_io.ts";
 * const memory = memoryIo({ files: { "audit.jsonl": "" } });
 * assert.equal(await auditCommand.run(["verify", "audit.jsonl"], memory.io), 0);
 * assert.match(memory.stdout(), /^ok: 0 records in 0 chains verify \(not anchored/);
 * ```
 */
export const auditCommand: Command = defineCommand({
  name: "audit",
  summary: "Verify, show or export the tamper-evident audit log",
  description: `  pab audit verify FILE | --store PATH|URL [--checkpoint CP --key KEY.pub] [--json]
  pab audit show FILE | --store PATH|URL [--session ID] [--json]
  pab audit export --store PATH|URL [--session ID]
  pab audit keygen --out KEY [--name NAME]
  pab audit checkpoint FILE | --store PATH|URL --key KEY [--out CP]

Every decision, ruling, reservation and effect of a session is an audit event
that carries the sha256 of the one before it (canonical JSON). A signed
checkpoint (Ed25519, your key) anchors every chain's length and head, so a
log that was cut, emptied, or rewritten with recomputed hashes fails.

  verify      Check every chain; report the first broken link (exit 1) with
              its code: ERR_AUDIT_PARSE (a line is not a canonical record),
              ERR_AUDIT_HASH (a record was changed), ERR_AUDIT_LINK (a record
              was removed, added or moved), ERR_AUDIT_HEAD (a store's chain
              does not end at the head its writer stored), ERR_AUDIT_UNRECORDED
              (a stored input has no audit record), ERR_AUDIT_TRUNCATED
              and ERR_AUDIT_REWRITTEN (against --checkpoint), and
              ERR_AUDIT_CHECKPOINT (the checkpoint is not signed by --key)
  show        Print a readable timeline (control characters escaped)
  export      Print the chains as JSONL, one canonical record per line
  keygen      Make an Ed25519 key: KEY (private, 0600) and KEY.pub (public)
  checkpoint  Sign the log's current heads with KEY; keep the output
              somewhere the log's writer cannot reach`,
  options: {
    store: {
      type: "string",
      value: "PATH|URL",
      description: `Read the store of pab serve or pab hook (a Deno KV file, or a remote KV URL
with DENO_KV_ACCESS_TOKEN set)`,
    },
    session: { type: "string", value: "ID", description: "Only this session's chain" },
    checkpoint: { type: "string", value: "CP", description: "A checkpoint to verify against (with --key)" },
    key: { type: "string", value: "KEY", description: "The key file: private to sign, public (.pub) to verify" },
    out: { type: "string", value: "FILE", description: "Where keygen or checkpoint writes (a new file)" },
    name: { type: "string", value: "NAME", description: "The key's name in signatures (default: pab-audit)" },
    json: { type: "boolean", description: "Print the verdict or the records as JSON" },
  },
  arguments: { name: "ACTION", max: 2 },
  exitCodes: "0 ok; 1 a chain or checkpoint does not verify; 2 bad usage or a log that cannot be read.",
  async run(input, io) {
    const text = (name: string) => input.string(name);
    const [action, file] = input.positionals;
    const actions = ["verify", "show", "export", "keygen", "checkpoint"];
    if (!actions.includes(action)) {
      throw new UsageError(
        `${action ? `unknown action "${action}" (use` : "name an action:"} verify, show, export, keygen or checkpoint${
          action ? ")" : ""
        }`,
        "audit",
      );
    }
    if (action === "keygen") {
      if (file !== undefined) throw new UsageError(`unexpected argument "${file}" (keygen writes --out KEY)`, "audit");
      const out = text("out");
      if (!out) throw new UsageError("keygen needs --out KEY", "audit");
      await io.stdout.write(await writeAuditKey(out, text("name") ?? "pab-audit"));
      return 0;
    }
    const store = text("store");
    if ((file === undefined) === (store === undefined)) throw new UsageError("give either a FILE or --store", "audit");
    if (action === "export" && store === undefined) throw new UsageError("export reads a --store", "audit");
    const session = text("session");
    if (action === "checkpoint") return await checkpoint(io, file, store, text("key"), text("out"));
    if (action === "verify") {
      return await verify(io, file, store, session, text("checkpoint"), text("key"), input.flag("json"));
    }
    let records = file !== undefined ? await readVerifiedFile(io, file) : (await readStore(store!, session)).records;
    if (session !== undefined) records = records.filter((record) => record.stream === session);
    if (action === "show" && input.flag("json")) {
      await io.stdout.write(`${JSON.stringify({ schemaVersion: 1, records })}\n`);
    } else {
      // The timeline escapes controls; the CLI's escape also catches invisible format characters (zero-width, BOM).
      await io.stdout.write(action === "show" ? escapeLines(formatTimeline(records)) : toJsonl(records));
    }
    return 0;
  },
});

async function verify(
  io: Io,
  file: string | undefined,
  store: string | undefined,
  session: string | undefined,
  checkpointFile: string | undefined,
  keyFile: string | undefined,
  json: boolean | undefined,
): Promise<number> {
  if ((checkpointFile === undefined) !== (keyFile === undefined)) {
    throw new UsageError(
      "--checkpoint and --key go together (the checkpoint, and the public key that signed it)",
      "audit",
    );
  }
  const key = keyFile === undefined ? undefined : await readAuditKey(io, keyFile, false);
  let records: AuditRecord[] = [];
  let verdict: AuditVerdict;
  if (file !== undefined) {
    const text = await readFile(file, io);
    verdict = verifyJsonl(text);
    if (verdict.ok) records = text.split("\n").filter(Boolean).map((line) => parseJson(line) as AuditRecord);
  } else {
    const read = await readStore(store!, session);
    records = read.records;
    verdict = verifyRecords(records);
    if (verdict.ok) verdict = verifyHeads(records, read.heads);
    if (verdict.ok) verdict = verifyInputs(records, read.inputs);
  }
  let anchored = false;
  if (verdict.ok && checkpointFile !== undefined && key) {
    try {
      verdict = verifyCheckpoint(records, await readCheckpoint(io, checkpointFile, key));
      anchored = verdict.ok;
    } catch (error) {
      if (!(error instanceof CheckpointRefused)) throw error;
      verdict = { ok: false, problem: { code: "ERR_AUDIT_CHECKPOINT", where: checkpointFile, message: error.message } };
    }
  }
  if (json) {
    await io.stdout.write(`${JSON.stringify({ schemaVersion: 1, ...verdict, ...(verdict.ok ? { anchored } : {}) })}\n`);
  } else if (verdict.ok) {
    const anchor = anchored
      ? `, anchored to checkpoint "${checkpointFile}"`
      : " (not anchored: pass --checkpoint CP --key KEY.pub to find cut or rewritten chains)";
    await io.stdout.write(
      `ok: ${verdict.records} records in ${verdict.streams} chains verify${escapeControl(anchor)}\n`,
    );
  } else {
    const { code, where, message } = verdict.problem;
    // A chain's id and the text around the break come from the log: escaped, so they cannot rewrite the terminal.
    await io.stdout.write(`broken at ${escapeControl(where)}: [${code}] ${escapeControl(message)}\n`);
  }
  return verdict.ok ? 0 : 1;
}

async function checkpoint(
  io: Io,
  file: string | undefined,
  store: string | undefined,
  keyFile: string | undefined,
  out: string | undefined,
): Promise<number> {
  if (keyFile === undefined) {
    throw new UsageError("checkpoint needs --key KEY (make one with pab audit keygen)", "audit");
  }
  const key = await readAuditKey(io, keyFile, true);
  let records: AuditRecord[];
  let verdict: AuditVerdict;
  if (file !== undefined) {
    records = await readVerifiedFile(io, file);
    verdict = verifyRecords(records);
  } else {
    const read = await readStore(store!, undefined);
    records = read.records;
    verdict = verifyRecords(records);
    if (verdict.ok) verdict = verifyHeads(records, read.heads);
  }
  if (!verdict.ok) {
    throw new IoError(
      `Cannot sign a checkpoint: the log does not verify at ${verdict.problem.where} (${verdict.problem.code}); ` +
        `run pab audit verify`,
    );
  }
  const note = await signCheckpoint(checkpointOf(records), key);
  if (out === undefined) await io.stdout.write(note);
  else await io.writeTextFile(out, note);
  return 0;
}

async function readVerifiedFile(io: Io, file: string): Promise<AuditRecord[]> {
  const text = await readFile(file, io);
  const verdict = verifyJsonl(text);
  if (!verdict.ok) {
    throw new IoError(
      `Cannot use "${file}": it does not verify at ${verdict.problem.where} (${verdict.problem.code}); run pab audit verify`,
    );
  }
  return text.split("\n").filter(Boolean).map((line) => parseJson(line) as AuditRecord);
}

async function readFile(path: string, io: Io): Promise<string> {
  try {
    return await io.readTextFile(path);
  } catch (error) {
    throw new IoError(`Cannot read audit log "${path}": ${fileProblem(error)} (${readHint(error)})`);
  }
}

async function readStore(
  location: string,
  session: string | undefined,
): Promise<{
  records: AuditRecord[];
  heads: Map<string, { seq: number; hash: string }>;
  inputs: Map<string, readonly unknown[]>;
}> {
  if (!/^https?:\/\//i.test(location) && location !== ":memory:") {
    try {
      await Deno.stat(location);
    } catch (error) {
      throw new IoError(`Cannot read store "${location}": ${fileProblem(error)} (${readHint(error)})`);
    }
  }
  // Reading a whole log may take longer than one call of a running guard.
  const store = await openStore(location, { repair: false, deadline: 600_000 });
  try {
    const records = await store.audit(session);
    const heads = await store.heads();
    if (session !== undefined) { for (const stream of [...heads.keys()]) if (stream !== session) heads.delete(stream); }
    // Every chain's session, and every session the store keeps: one whose chain is gone must not go unseen.
    const sessions = new Set(records.map((record) => record.stream));
    for (const id of await store.sessionIds()) if (session === undefined || id === session) sessions.add(id);
    const inputs = new Map<string, readonly unknown[]>();
    for (const stream of sessions) inputs.set(stream, await store.inputs(stream, 0));
    return { records, heads, inputs };
  } finally {
    store.close();
  }
}
