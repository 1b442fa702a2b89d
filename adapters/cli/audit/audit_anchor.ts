/**
 * The anchor of `pab audit`: operator keys (`keygen`), signed checkpoints
 * (`checkpoint`), and reading both back for `verify --checkpoint`.
 *
 * @module
 */
import { errorText } from "../../../core/mod.ts";
import { dirname, resolve } from "node:path";
import { type AuditKeyFile, generateAuditKey, openCheckpoint, publicAuditKey } from "../../audit/mod.ts";
import type { Checkpoint } from "../../audit/mod.ts";
import { IoError, UnsafePathError } from "../shell/cli_error.ts";
import { fileProblem, type Io } from "../io/io.ts";
import { readHint } from "../io/read_input.ts";

/**
 * `pab audit keygen --out FILE [--name NAME]`: a new Ed25519 key in FILE
 * (private, created `0600`, never over an existing file or through a link)
 * and its public half in FILE.pub. Returns the lines to print.
 */
export async function writeAuditKey(out: string, name: string): Promise<string> {
  let key: AuditKeyFile;
  try {
    key = await generateAuditKey(name);
  } catch (error) {
    throw new IoError(`Cannot make an audit key: ${errorText(error)}`);
  }
  await createKeyFile(out, `${JSON.stringify(key)}\n`, 0o600);
  await createKeyFile(`${out}.pub`, `${JSON.stringify(publicAuditKey(key))}\n`, 0o644);
  return `wrote "${out}" (the private key "${name}": keep it secret, pab audit checkpoint signs with it) ` +
    `and "${out}.pub" (the public key: give it to whoever verifies)\n`;
}

/** Read a key file; `needPrivate` refuses a public key file. */
export async function readAuditKey(io: Io, path: string, needPrivate: boolean): Promise<AuditKeyFile> {
  const text = await readText(io, path, "key file");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new IoError(`Cannot read key file "${path}": it is not JSON (make one with pab audit keygen)`);
  }
  const key = value as Partial<AuditKeyFile> | null;
  const base64url = /^[A-Za-z0-9_-]{43}$/;
  if (
    !key || typeof key !== "object" || typeof key.name !== "string" || key.kty !== "OKP" || key.crv !== "Ed25519" ||
    typeof key.x !== "string" || !base64url.test(key.x) || (key.d !== undefined && !base64url.test(String(key.d)))
  ) {
    throw new IoError(`Cannot read key file "${path}": it is not an Ed25519 key of pab audit keygen`);
  }
  if (needPrivate && key.d === undefined) {
    throw new IoError(`Cannot sign with "${path}": it is a public key file (pass the private key keygen wrote)`);
  }
  return key as AuditKeyFile;
}

/** Read and check a signed checkpoint file with the operator's key. */
export async function readCheckpoint(io: Io, path: string, key: AuditKeyFile): Promise<Checkpoint> {
  const note = await readText(io, path, "checkpoint");
  try {
    return await openCheckpoint(note, key);
  } catch (error) {
    throw new CheckpointRefused(
      `checkpoint "${path}" cannot be trusted: ${errorText(error)}`,
    );
  }
}

/** A checkpoint that is not signed by the key, or not a checkpoint: the log is not anchored. */
export class CheckpointRefused extends Error {
  /** Make one. */
  constructor(message: string) {
    super(message);
    this.name = "CheckpointRefused";
  }
}

async function readText(io: Io, path: string, what: string): Promise<string> {
  try {
    return await io.readTextFile(path);
  } catch (error) {
    throw new IoError(`Cannot read ${what} "${path}": ${fileProblem(error)} (${readHint(error)})`);
  }
}

async function createKeyFile(path: string, text: string, mode: number): Promise<void> {
  const folder = dirname(resolve(path));
  const info = await Deno.lstat(folder).catch(() => undefined);
  if (!info?.isDirectory) {
    throw new IoError(`Cannot write "${path}": "${folder}" is not a folder (make it, or choose another path)`);
  }
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { write: true, createNew: true, mode });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      throw new UnsafePathError(
        `Cannot write "${path}": it already exists, and pab only creates new key files (remove it, or choose another name)`,
      );
    }
    throw new IoError(`Cannot write "${path}": ${fileProblem(error)}`);
  }
  try {
    let bytes = new TextEncoder().encode(text);
    while (bytes.length) bytes = bytes.subarray(await file.write(bytes));
  } finally {
    file.close();
  }
}
