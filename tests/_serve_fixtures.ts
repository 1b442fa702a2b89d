// Test fixtures for pab serve, the store and the hook: a policy with a `once`
// tool, an approver and the e-mail hijack's tools; helpers to call the API and
// to start real `pab serve` processes.
import { fileURLToPath } from "node:url";

export const SERVE_POLICY_YAML = `
version: 1
approvers:
  manager: { mandate: [approval] }
tools:
  read_inbox:
    output: untrusted
    on_tainted: allow
  get_contacts:
    output: trusted
    on_tainted: allow
  send_email:
    output: trusted
    on_tainted: confirm
    args:
      to: { require: trusted }
  publish_release:
    output: trusted
    on_tainted: allow
    once: release.sent
  refund:
    output: trusted
    on_tainted: allow
    needs_approval: true
    effects: [refund.issued]
`;

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Write the policy to a fresh temporary folder and return the folder and the policy's path. */
export async function policyFolder(): Promise<{ dir: string; policy: string }> {
  const dir = await Deno.makeTempDir({ prefix: "pab_serve_" });
  const policy = `${dir}/policy.yaml`;
  await Deno.writeTextFile(policy, SERVE_POLICY_YAML);
  return { dir, policy };
}

/** The token of each session `call` made, by session id (a client keeps its sessions' tokens). */
export const SESSION_TOKENS = new Map<string, string>();

/**
 * Call the API as a well-behaved client does: a JSON body is declared
 * `application/json`, and a call on a session this module made carries its
 * token (unless `init.headers` says otherwise). Return the status and the JSON body.
 */
export async function call(
  base: string,
  path: string,
  body?: unknown,
  init: RequestInit = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const method = init.method ?? (body === undefined && init.body === undefined ? "GET" : "POST");
  const session = /^\/v1\/sessions\/([^/]+)/.exec(path)?.[1];
  const token = session === undefined ? undefined : SESSION_TOKENS.get(decodeURIComponent(session));
  const headers = {
    ...(method === "POST" ? { "content-type": "application/json" } : {}),
    ...(token ? { "pab-session-token": token } : {}),
    ...Object.fromEntries(new Headers(init.headers).entries()),
  };
  const response = await fetch(`${base}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...init,
    headers,
  });
  const text = await response.text();
  const json = text ? JSON.parse(text) : {};
  if (path === "/v1/sessions" && response.status === 201) SESSION_TOKENS.set(json.session, json.token);
  return { status: response.status, json };
}

/** The permission flags `pab serve` and `pab hook` need. */
export const SERVE_FLAGS = [
  "--unstable-kv",
  "--allow-net=localhost",
  "--allow-read",
  "--allow-write=/tmp",
  "--allow-env=DENO_KV_ACCESS_TOKEN",
];

/** A running `pab serve` process. */
export interface PabServer {
  readonly url: string;
  stop(): Promise<string>;
}

/**
 * The URL a started `pab serve` prints as its first line, read from `child`'s stdout (the reader is kept, to cancel),
 * and its stderr as text to come; throws with that stderr when the process ends without one.
 */
export async function servedUrl(
  child: Deno.ChildProcess,
): Promise<{ url: string; stderr: Promise<string>; reader: ReadableStreamDefaultReader<string> }> {
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
  }
  const stderr = new Response(child.stderr).text();
  if (!text.includes("\n")) {
    await child.status;
    throw new Error(`pab serve did not start: ${await stderr}`);
  }
  return { url: text.trim(), stderr, reader };
}

/** Stop a `pab serve` process that may have ended already (what some tests find), and wait for it and its stderr. */
export async function stopServed(server: { readonly child: Deno.ChildProcess; readonly stderr: Promise<string> }) {
  try {
    server.child.kill("SIGTERM");
  } catch {
    // It ended already.
  }
  await server.child.status;
  await server.stderr;
}

/** Start `pab serve` in its own process and wait for its URL. */
export async function startPabServe(args: string[], env: Record<string, string> = {}): Promise<PabServer> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...SERVE_FLAGS, "cli.ts", "serve", "--port", "0", ...args],
    cwd: ROOT,
    env,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const { url, stderr, reader } = await servedUrl(child);
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await reader.cancel().catch(() => {});
      return await stderr;
    },
  };
}

/**
 * Send one raw HTTP/1.1 request (exact headers, as a browser or an attacker
 * could) and return the status and the JSON body. `body` may be cut short
 * (`stall`): the request then declares more than it sends and the socket stays open until the server answers.
 */
export async function rawRequest(
  port: number,
  head: { method: string; path: string; headers: Record<string, string> },
  body = "",
  stall = false,
): Promise<{ status: number; headers: Record<string, string>; json: Record<string, unknown> }> {
  const connection = await Deno.connect({ hostname: "localhost", port });
  try {
    const length = new TextEncoder().encode(body).byteLength + (stall ? 100 : 0);
    const lines = [`${head.method} ${head.path} HTTP/1.1`];
    for (const [name, value] of Object.entries(head.headers)) lines.push(`${name}: ${value}`);
    if (head.method !== "GET" || body) lines.push(`content-length: ${length}`);
    lines.push("connection: close", "", "");
    await connection.write(new TextEncoder().encode(lines.join("\r\n") + body));
    let text = "";
    const buffer = new Uint8Array(65536);
    const decoder = new TextDecoder();
    while (true) {
      const read = await connection.read(buffer);
      if (read === null) break;
      text += decoder.decode(buffer.subarray(0, read), { stream: true });
      const end = text.indexOf("\r\n\r\n");
      const declared = /\r\ncontent-length: (\d+)/i.exec(text)?.[1];
      if (end >= 0 && declared !== undefined && text.length >= end + 4 + Number(declared)) break;
    }
    const end = text.indexOf("\r\n\r\n");
    const [status, ...fields] = text.slice(0, end).split("\r\n");
    const headers: Record<string, string> = {};
    for (const field of fields) {
      const colon = field.indexOf(":");
      headers[field.slice(0, colon).toLowerCase()] = field.slice(colon + 1).trim();
    }
    const rest = text.slice(end + 4);
    return { status: Number(status.split(" ")[1]), headers, json: rest ? JSON.parse(rest) : {} };
  } finally {
    try {
      connection.close();
    } catch {
      // Already closed by the server.
    }
  }
}
