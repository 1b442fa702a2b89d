/**
 * A lean HTTP/1.1 client connection for load generation: one keep-alive TCP
 * connection, requests written as one buffer, and answers read by their
 * status line and `Content-Length` alone, so that a benchmark measures the
 * server rather than its client.
 *
 * @module
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const HEADER_END = [13, 10, 13, 10];
/** Bytes kept before a request's body for its head (method, path, host and headers). */
const HEAD_ROOM = 1024;

/** An answer: its status and body text. */
export interface HttpAnswer {
  /** The status code. */
  readonly status: number;
  /** The body, as text. */
  readonly body: string;
}

/**
 * One keep-alive connection to a server on localhost.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HttpConnection } from "./http_connection.ts";
 * const server = Deno.serve({ hostname: "localhost", port: 0, onListen() {} }, async (request) => new Response(`got ${await request.text()}`));
 * const connection = await HttpConnection.open(server.addr.port);
 * assert.deepEqual(await connection.request("POST", "/x", {}, "a"), { status: 200, body: "got a" });
 * assert.deepEqual(await connection.request("POST", "/x", {}, "b"), { status: 200, body: "got b" });
 * connection.close();
 * await server.shutdown();
 * ```
 */
export class HttpConnection {
  readonly #conn: Deno.TcpConn;
  readonly #host: string;
  #buffer = new Uint8Array(64 * 1024);
  #filled = 0;
  #out = new Uint8Array(HEAD_ROOM + 16 * 1024);

  private constructor(conn: Deno.TcpConn, port: number) {
    this.#conn = conn;
    this.#host = `localhost:${port}`;
  }

  /** Connect to `localhost:port`. */
  static async open(port: number): Promise<HttpConnection> {
    const conn = await Deno.connect({ hostname: "localhost", port });
    conn.setNoDelay(true);
    return new HttpConnection(conn, port);
  }

  /** Send a request (a JSON body when `body` is given) and read its answer. */
  async request(
    method: string,
    path: string,
    headers: Readonly<Record<string, string>>,
    body?: string,
  ): Promise<HttpAnswer> {
    const bytes = this.#encode(method, path, headers, body);
    for (let written = 0; written < bytes.byteLength;) written += await this.#conn.write(bytes.subarray(written));
    return await this.#answer();
  }

  /**
   * The request's bytes, in this connection's write buffer (reused: it is not written to again until the request's
   * answer is read). A new `Uint8Array` costs about as much as encoding 3 KB into one already made, and the load
   * client's CPU is taken from the server it measures.
   */
  #encode(method: string, path: string, headers: Readonly<Record<string, string>>, body?: string): Uint8Array {
    // The body goes in first, after room for the head (a UTF-8 character is at most 3 bytes per UTF-16 unit).
    const room = HEAD_ROOM + (body === undefined ? 0 : body.length * 3);
    if (this.#out.byteLength < room) this.#out = new Uint8Array(Math.max(room, this.#out.byteLength * 2));
    const size = body === undefined ? 0 : encoder.encodeInto(body, this.#out.subarray(HEAD_ROOM)).written;
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.#host}\r\n`;
    for (const name in headers) head += `${name}: ${headers[name]}\r\n`;
    if (body !== undefined) head += `content-type: application/json\r\ncontent-length: ${size}\r\n`;
    const headBytes = encoder.encode(`${head}\r\n`);
    if (headBytes.byteLength > HEAD_ROOM) {
      throw new Error(`Cannot send a request head of ${headBytes.byteLength} bytes`);
    }
    const start = HEAD_ROOM - headBytes.byteLength;
    this.#out.set(headBytes, start);
    return this.#out.subarray(start, HEAD_ROOM + size);
  }

  /** Close the connection. */
  close(): void {
    this.#conn.close();
  }

  async #answer(): Promise<HttpAnswer> {
    let end = -1;
    while ((end = indexOf(this.#buffer, this.#filled, HEADER_END)) < 0) await this.#fill();
    const head = decoder.decode(this.#buffer.subarray(0, end));
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length) throw new Error(`Cannot read the answer: no content-length in ${JSON.stringify(head)}`);
    const total = end + 4 + Number(length[1]);
    while (this.#filled < total) await this.#fill(total);
    const body = decoder.decode(this.#buffer.subarray(end + 4, total));
    this.#buffer.copyWithin(0, total, this.#filled);
    this.#filled -= total;
    return { status, body };
  }

  async #fill(need = 0): Promise<void> {
    if (this.#filled === this.#buffer.byteLength || need > this.#buffer.byteLength) {
      const grown = new Uint8Array(Math.max(need, this.#buffer.byteLength * 2));
      grown.set(this.#buffer.subarray(0, this.#filled));
      this.#buffer = grown;
    }
    const read = await this.#conn.read(this.#buffer.subarray(this.#filled));
    if (read === null) throw new Error("Cannot read the answer: the server closed the connection");
    this.#filled += read;
  }
}

function indexOf(buffer: Uint8Array, filled: number, needle: readonly number[]): number {
  for (let i = 0; i + needle.length <= filled; i++) {
    if (
      buffer[i] === needle[0] && buffer[i + 1] === needle[1] && buffer[i + 2] === needle[2] &&
      buffer[i + 3] === needle[3]
    ) return i;
  }
  return -1;
}
