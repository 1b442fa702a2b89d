/**
 * Signed checkpoints of the audit log, the way transparency logs anchor
 * theirs (C2SP `tlog-checkpoint` in a `signed-note`): the size and head hash
 * of every chain, signed with an Ed25519 key the operator owns (Web Crypto).
 * A log verifies against a checkpoint when every chain it names is still
 * there, at least as long, with the same record at the checkpoint's size:
 * cutting the tail, emptying the log, dropping a chain or rewriting records
 * (even with recomputed hashes) all fail, and so does a checkpoint signed by
 * another key.
 *
 * @module
 */
import type { AuditRecord } from "./audit_record.ts";

/** The first line of every checkpoint. */
export const CHECKPOINT_ORIGIN = "pab audit log";

/** The head of one chain in a checkpoint. */
export interface ChainHead {
  /** The chain (a session id). */
  readonly stream: string;
  /** How many records it had. */
  readonly size: number;
  /** The hash of its last record then. */
  readonly hash: string;
}

/** A checkpoint: every chain's head, sorted by chain. */
export interface Checkpoint {
  /** The heads, one per chain, sorted by `stream`. */
  readonly heads: readonly ChainHead[];
}

/** An operator's key as its file keeps it: a named Ed25519 JWK (`d` only in the private key). */
export interface AuditKeyFile {
  /** The key's name, written in each signature line. */
  readonly name: string;
  /** `OKP`. */
  readonly kty: "OKP";
  /** `Ed25519`. */
  readonly crv: "Ed25519";
  /** The public key (base64url). */
  readonly x: string;
  /** The private key (base64url), absent from a public key file. */
  readonly d?: string;
}

/**
 * The checkpoint of verified records: each chain's size and last hash.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linkRecord } from "./audit_record.ts";
 * import { checkpointOf } from "./checkpoint.ts";
 * const first = linkRecord("s", undefined, { kind: "session", at: "2026-11-30T15:00:00.000Z" });
 * assert.deepEqual(checkpointOf([first]), { heads: [{ stream: "s", size: 1, hash: first.hash }] });
 * ```
 */
export function checkpointOf(records: readonly AuditRecord[]): Checkpoint {
  const heads = new Map<string, ChainHead>();
  for (const record of records) {
    heads.set(record.stream, { stream: record.stream, size: record.seq + 1, hash: record.hash });
  }
  return { heads: [...heads.values()].sort((a, b) => a.stream < b.stream ? -1 : a.stream > b.stream ? 1 : 0) };
}

/** The note body a checkpoint is signed as: origin, count, then one line per chain (its name as JSON). */
export function checkpointBody(checkpoint: Checkpoint): string {
  const lines = checkpoint.heads.map((head) => `${JSON.stringify(head.stream)} ${head.size} ${head.hash}`);
  return `${CHECKPOINT_ORIGIN}\n${checkpoint.heads.length}\n${lines.map((line) => `${line}\n`).join("")}`;
}

/**
 * Make a new operator key: Ed25519 through Web Crypto.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateAuditKey, publicAuditKey } from "./checkpoint.ts";
 * const key = await generateAuditKey("ops");
 * assert.equal(key.name, "ops");
 * assert.equal(publicAuditKey(key).d, undefined);
 * ```
 */
export async function generateAuditKey(name: string): Promise<AuditKeyFile> {
  if (!/^[\x21-\x7e]{1,64}$/.test(name) || name.includes("+")) {
    throw new TypeError(`Cannot name an audit key "${name}": use 1 to 64 visible ASCII characters, no "+" or space`);
  }
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"]) as CryptoKeyPair;
  const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  return { name, kty: "OKP", crv: "Ed25519", x: String(jwk.x), d: String(jwk.d) };
}

/** The public half of a key file. */
export function publicAuditKey(key: AuditKeyFile): AuditKeyFile {
  return { name: key.name, kty: key.kty, crv: key.crv, x: key.x };
}

/**
 * Sign a checkpoint: the note body, a blank line, and `— NAME SIGNATURE`
 * (base64 of the key's 4-byte id and the 64-byte Ed25519 signature).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateAuditKey, openCheckpoint, publicAuditKey, signCheckpoint } from "./checkpoint.ts";
 * const key = await generateAuditKey("ops");
 * const note = await signCheckpoint({ heads: [{ stream: "s", size: 2, hash: "ab".repeat(32) }] }, key);
 * assert.deepEqual(await openCheckpoint(note, publicAuditKey(key)), { heads: [{ stream: "s", size: 2, hash: "ab".repeat(32) }] });
 * await assert.rejects(openCheckpoint(note.replace("s\" 2", "s\" 1"), publicAuditKey(key)));
 * ```
 */
export async function signCheckpoint(checkpoint: Checkpoint, key: AuditKeyFile): Promise<string> {
  if (key.d === undefined) throw new TypeError(`Cannot sign with key "${key.name}": it is a public key file`);
  const privateKey = await crypto.subtle.importKey("jwk", { ...jwkOf(key), d: key.d }, "Ed25519", false, ["sign"]);
  const body = checkpointBody(checkpoint);
  const signature = new Uint8Array(await crypto.subtle.sign("Ed25519", privateKey, new TextEncoder().encode(body)));
  const blob = new Uint8Array([...await keyId(key), ...signature]);
  return `${body}\n\u2014 ${key.name} ${btoa(String.fromCharCode(...blob))}\n`;
}

/**
 * Check a signed checkpoint with the operator's public key and read it.
 * Rejects with a `TypeError` whose message says what is wrong: not a
 * checkpoint, no signature by this key, or a signature that does not match.
 */
export async function openCheckpoint(note: string, key: AuditKeyFile): Promise<Checkpoint> {
  const split = note.lastIndexOf("\n\n");
  if (split < 0 || !note.endsWith("\n")) throw new TypeError("it is not a signed checkpoint (no signature block)");
  const body = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split("\n");
  const id = await keyId(key);
  const publicKey = await crypto.subtle.importKey("jwk", jwkOf(key), "Ed25519", false, ["verify"]);
  let signed = false;
  for (const line of lines) {
    const match = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
    if (!match) throw new TypeError(`it has a malformed signature line ${JSON.stringify(line.slice(0, 80))}`);
    if (match[1] !== key.name) continue;
    const blob = Uint8Array.from(atob(match[2]), (char) => char.charCodeAt(0));
    if (blob.length !== 68 || !id.every((byte, i) => blob[i] === byte)) continue;
    signed = await crypto.subtle.verify("Ed25519", publicKey, blob.slice(4), new TextEncoder().encode(body));
    if (!signed) throw new TypeError(`its signature by key "${key.name}" does not match its content`);
  }
  if (!signed) throw new TypeError(`it carries no signature by key "${key.name}"`);
  return parseBody(body);
}

function parseBody(body: string): Checkpoint {
  const lines = body.slice(0, -1).split("\n");
  if (lines[0] !== CHECKPOINT_ORIGIN) throw new TypeError(`its origin is not "${CHECKPOINT_ORIGIN}"`);
  const count = Number(lines[1]);
  if (!Number.isSafeInteger(count) || count !== lines.length - 2) throw new TypeError("its chain count is wrong");
  const heads: ChainHead[] = [];
  for (const line of lines.slice(2)) {
    const match = /^("(?:[^"\\]|\\.)*") (\d+) ([0-9a-f]{64})$/.exec(line);
    if (!match) throw new TypeError(`it has a malformed chain line ${JSON.stringify(line.slice(0, 80))}`);
    heads.push({ stream: JSON.parse(match[1]), size: Number(match[2]), hash: match[3] });
  }
  return { heads };
}

function jwkOf(key: AuditKeyFile): JsonWebKey {
  return { kty: "OKP", crv: "Ed25519", x: key.x };
}

/** The note key id: the first 4 bytes of sha256(name, newline, 0x01 for Ed25519, the raw public key). */
async function keyId(key: AuditKeyFile): Promise<Uint8Array> {
  const raw = Uint8Array.from(atob(key.x.replace(/-/g, "+").replace(/_/g, "/")), (char) => char.charCodeAt(0));
  const bytes = new Uint8Array([...new TextEncoder().encode(`${key.name}\n`), 1, ...raw]);
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)).slice(0, 4);
}
