/**
 * Load on `pab serve`, and where its time goes. One step of a session records
 * a tool's output (about 3 KB, with addresses and links) and decides a call;
 * N sessions step concurrently for a while. The same steps are then run
 * without HTTP (straight on the session host, over a timed store) and without
 * the host (straight on a guard), so the split between HTTP, JSON, recording,
 * decision, store and the host's own work (audit chain, bookkeeping) shows.
 *
 * @module
 */
import { Guard, type Policy } from "../../../guard/mod.ts";
import { parsePolicy } from "../../../guard/policy/text/mod.ts";
import { SESSION_TOKEN_HEADER, SessionHost } from "../../serve/mod.ts";
import type { PabStore } from "../../store/mod.ts";
import { type AuditRecord, linkRecord } from "../../audit/mod.ts";
import { HttpConnection } from "./http_connection.ts";

/** How much load to put on the server. */
export interface ServeLoad {
  /** Concurrent sessions (default 50). */
  readonly sessions?: number;
  /** Seconds of load (default 10). */
  readonly seconds?: number;
  /** Characters of tool output recorded per decision (default 3000). */
  readonly outputChars?: number;
  /** Steps per client at most (default: no limit). */
  readonly steps?: number;
  /** Clients stepping at once, each over its share of the sessions in turn (default: one per session). */
  readonly clients?: number;
  /**
   * Step each client's sessions over the next client's connection, not the one that made them (with workers sharing
   * a port, a request then reaches another worker than its session's about (N-1)/N of the time, and is handed over).
   */
  readonly crossed?: boolean;
  /** Seconds of load on sessions of their own before the timed load, deleted after it (default 0: none). */
  readonly warmupSeconds?: number;
  /** Delete each session after this many steps and make a new one (default: never). */
  readonly churn?: number;
  /** Called when the timed load starts (the sessions are made). */
  readonly onStart?: () => void;
  /** Called every second with the decisions so far (for the soak's samples). */
  readonly onTick?: (decisions: number) => void;
}

/** What the load gave. */
export interface ServeLoadResult {
  /** Concurrent sessions. */
  readonly sessions: number;
  /** Decisions made (one per step). */
  readonly decisions: number;
  /** Wall time of the load, in seconds. */
  readonly seconds: number;
  /** Decisions per second. */
  readonly perSecond: number;
  /** Median latency of one step (record + decide) over HTTP, in milliseconds. */
  readonly p50Ms: number;
  /** 99th-percentile latency of one step, in milliseconds. */
  readonly p99Ms: number;
  /**
   * The lowest and highest of the clients' own median step latencies, in milliseconds. Far apart, they show load
   * spread unevenly (with workers sharing a port, the kernel gives each a random share of the connections, and a
   * worker with more of them answers each more slowly).
   */
  readonly clientP50Ms: readonly [number, number];
}

/** The policy the benchmark serves: the e-mail hijack's tools. */
export const BENCH_POLICY_YAML = `
version: 1
tools:
  read_inbox: { output: untrusted, on_tainted: allow }
  get_contacts: { output: trusted, on_tainted: allow }
  send_email:
    output: trusted
    on_tainted: allow
    args:
      to: { require: trusted }
`;

/** The benchmark's policy, parsed. */
export function benchPolicy(): Policy {
  return parsePolicy(BENCH_POLICY_YAML, { source: "bench.yaml" });
}

/**
 * A tool output of about `chars` characters for step `step` of session
 * `session`: prose with addresses, links and numbers, different every step.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { benchOutput } from "./serve_load.ts";
 * assert.ok(benchOutput(1, 2, 3000).length >= 3000);
 * assert.notEqual(benchOutput(1, 2, 100), benchOutput(1, 3, 100));
 * ```
 */
export function benchOutput(session: number, step: number, chars: number): string {
  let text = `Message ${step} from carol${session}.${step % 7}@corp.example about the quarterly report. `;
  for (let line = 0; text.length < chars; line++) {
    text += `Line ${line}: notes of meeting ${step}-${line}, see https://docs.corp.example/r/${step}/${line} ` +
      `and call +1 555 01${String(line % 100).padStart(2, "0")}; ticket #${session * 1000 + line}. `;
  }
  return text;
}

/**
 * Put load on a running server at `base` (it must serve
 * {@linkcode BENCH_POLICY_YAML}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SessionHost, startServer } from "../../serve/mod.ts";
 * import { openStore } from "../../store/mod.ts";
 * import { benchPolicy, loadServer } from "./serve_load.ts";
 * const store = await openStore();
 * const server = startServer(new SessionHost(benchPolicy(), store), { version: "b", port: 0 });
 * const result = await loadServer(server.url, { sessions: 2, steps: 3, seconds: 5, churn: 2 });
 * assert.equal(result.decisions, 6);
 * await server.shutdown();
 * store.close();
 * ```
 */
export async function loadServer(base: string, load: ServeLoad = {}): Promise<ServeLoadResult> {
  const port = Number(new URL(base).port);
  const sessions = load.sessions ?? 50;
  const chars = load.outputChars ?? 3000;
  const clients = Math.min(sessions, load.clients ?? sessions);
  const connections = await Promise.all(Array.from({ length: clients }, () => HttpConnection.open(port)));
  const open = async (connection: HttpConnection, i: number): Promise<LoadSession> => {
    const made = await post(connection, "/v1/sessions", {});
    if (typeof made.token !== "string") throw new Error(`Cannot make a session: ${JSON.stringify(made)}`);
    const session = { id: String(made.session), token: made.token, n: i, steps: 0 };
    const said = await post(connection, `/v1/sessions/${session.id}/messages`, {
      role: "user",
      content: `Write to user${i}@corp.example`,
    }, session.token);
    if (said.ok !== true) throw new Error(`Cannot record a message: ${JSON.stringify(said)}`);
    return session;
  };
  // Each client makes its share of the sessions, one at a time.
  const makeShares = () =>
    Promise.all(connections.map(async (connection, client) => {
      const mine = [];
      for (let i = client; i < sessions; i += clients) mine.push(await open(connection, i));
      return mine;
    }));
  const latencies: number[] = [];
  const byClient: number[][] = connections.map(() => []);
  const steps = { connections, chars, load, open };
  try {
    if (load.warmupSeconds) {
      // Warm-up on sessions of its own, deleted after: the timed load then runs on compiled code, as a server that
      // has been up a while does, and on sessions of the same age as without a warm-up.
      const warm = await makeShares();
      await stepSessions(warm, performance.now() + load.warmupSeconds * 1000, [], [], steps);
      for (const [client, mine] of warm.entries()) {
        for (const session of mine) await remove(connections[client], session.id, session.token);
      }
    }
    const shares = await makeShares();
    load.onStart?.();
    const started = performance.now();
    const tick = load.onTick ? setInterval(() => load.onTick?.(latencies.length), 1000) : undefined;
    try {
      await stepSessions(shares, started + (load.seconds ?? 10) * 1000, latencies, byClient, steps);
    } finally {
      clearInterval(tick);
    }
    return summary(sessions, latencies, byClient, (performance.now() - started) / 1000);
  } finally {
    for (const connection of connections) connection.close();
  }
}

/** A session the load client made: its id, token, number (for its outputs) and steps taken. */
interface LoadSession {
  readonly id: string;
  readonly token: string;
  readonly n: number;
  steps: number;
}

/**
 * Step every client's sessions in turn until `deadline` (or `load.steps` each), pushing each step's latency to
 * `latencies` and to the client's own list in `byClient` (when it has one).
 */
async function stepSessions(
  shares: LoadSession[][],
  deadline: number,
  latencies: number[],
  byClient: number[][],
  { connections, chars, load, open }: {
    readonly connections: readonly HttpConnection[];
    readonly chars: number;
    readonly load: ServeLoad;
    readonly open: (connection: HttpConnection, n: number) => Promise<LoadSession>;
  },
): Promise<void> {
  const clients = connections.length;
  await Promise.all(shares.map(async (mine, client) => {
    const connection = connections[load.crossed ? (client + 1) % clients : client];
    for (let step = 0; step < (load.steps ?? Infinity) && performance.now() < deadline; step++) {
      const at = step % mine.length;
      let session = mine[at];
      if (load.churn && session.steps >= load.churn) {
        await remove(connection, session.id, session.token);
        session = mine[at] = await open(connection, session.n);
      }
      session.steps++;
      const i = session.n;
      const before = performance.now();
      const recorded = await post(connection, `/v1/sessions/${session.id}/results`, {
        tool: "read_inbox",
        output: benchOutput(i, step, chars),
      }, session.token);
      if (recorded.ok !== true) throw new Error(`The results call failed: ${JSON.stringify(recorded)}`);
      const answer = await post(connection, `/v1/sessions/${session.id}/decide`, {
        tool: "send_email",
        args: { to: step % 2 ? `user${i}@corp.example` : `carol${i}.${step % 7}@corp.example` },
      }, session.token);
      if (!answer.decision) throw new Error(`The decide call failed: ${JSON.stringify(answer)}`);
      const latency = performance.now() - before;
      latencies.push(latency);
      byClient[client]?.push(latency);
    }
  }));
}

/** Where one step's time goes, in microseconds per step, from runs with fewer layers. */
export interface ServeSplit {
  /** The guard recording the output (engine). */
  readonly recordingUs: number;
  /** The guard deciding the call (engine). */
  readonly decisionUs: number;
  /** Time inside store calls (appending inputs and audit records, reading back), the audit hashing included. */
  readonly storeUs: number;
  /** Of the store's time, linking the audit records: canonical JSON and SHA-256 of each (they hold the outputs). */
  readonly auditHashUs: number;
  /** The session host's own work: the audit chain's hashing, replay bookkeeping, locks. */
  readonly hostUs: number;
  /** Parsing the request bodies and writing the answers as JSON. */
  readonly jsonUs: number;
  /** The rest of a step over HTTP: both sides of HTTP in this process, the load client, waiting. */
  readonly httpUs: number;
}

/**
 * The engine alone: one guard records `steps` bench outputs of `chars`
 * characters, deciding a call after each; the milliseconds spent in each part.
 */
export function engineSteps(
  policy: Policy,
  steps: number,
  chars: number,
): { guard: Guard; recordingMs: number; decisionMs: number } {
  const guard = new Guard(policy);
  guard.user("Write to user0@corp.example");
  let recordingMs = 0;
  let decisionMs = 0;
  for (let step = 0; step < steps; step++) {
    const output = benchOutput(0, step, chars);
    let at = performance.now();
    guard.record("read_inbox", output);
    recordingMs += performance.now() - at;
    at = performance.now();
    guard.decide("send_email", { to: `carol0.${step % 7}@corp.example` });
    decisionMs += performance.now() - at;
  }
  return { guard, recordingMs, decisionMs };
}

/**
 * Run the same steps with fewer layers and split `overallUs` (the CPU time
 * of one step over HTTP, server and load client together) into its parts.
 */
export async function splitStep(store: PabStore, overallUs: number, chars = 3000, steps = 400): Promise<ServeSplit> {
  const policy = benchPolicy();
  // Each layer is timed after a warm-up run of the same steps, as the server under load runs compiled code: timed
  // from cold, the first steps' compiling counted in the recording and doubled it.
  engineSteps(policy, steps, chars);
  const { guard, recordingMs: recording, decisionMs: decision } = engineSteps(policy, steps, chars);
  // The host over a timed store.
  const timed = timedStore(store);
  const host = new SessionHost(policy, timed.store);
  const hostSteps = async (id: string, session: number) => {
    await host.message(id, "user", "Write to user0@corp.example");
    for (let step = 0; step < steps; step++) {
      await host.result(id, { tool: "read_inbox", args: {}, output: benchOutput(session, step, chars) });
      await host.decide(id, { tool: "send_email", args: { to: `carol1.${step % 7}@corp.example` } });
    }
  };
  await hostSteps(await host.create(), 3);
  const id = await host.create();
  timed.reset();
  const start = performance.now();
  await hostSteps(id, 1);
  const hosted = performance.now() - start;
  // The audit chain's hashing, alone: link the chain's events again.
  const chain = await store.audit(id);
  const hashStart = performance.now();
  chain.reduce<AuditRecord | undefined>((head, record) => linkRecord(id, head, record.event), undefined);
  const auditHash = performance.now() - hashStart;
  // JSON both ways, for the same bodies.
  const decided = {
    decision: guard.decide("send_email", { to: "user0@corp.example" }),
    explanation: "send_email: allow",
  };
  const jsonStart = performance.now();
  for (let step = 0; step < steps; step++) {
    JSON.parse(JSON.stringify({ tool: "read_inbox", output: benchOutput(2, step, chars) }));
    JSON.parse(JSON.stringify({ tool: "send_email", args: { to: "user0@corp.example" } }));
    JSON.parse(JSON.stringify(decided));
  }
  const json = performance.now() - jsonStart;
  const per = (ms: number) => Math.round((ms * 1000) / steps);
  const storeUs = per(timed.elapsed());
  const engineUs = per(recording) + per(decision);
  const hostUs = Math.max(0, per(hosted) - engineUs - storeUs);
  const jsonUs = Math.max(0, per(json));
  return {
    recordingUs: per(recording),
    decisionUs: per(decision),
    storeUs,
    auditHashUs: per(auditHash),
    hostUs,
    jsonUs,
    httpUs: Math.max(0, Math.round(overallUs) - per(hosted) - jsonUs),
  };
}

/** A store whose every call is timed (the sum of the time spent awaiting it). */
function timedStore(store: PabStore): { store: PabStore; elapsed(): number; reset(): void } {
  let elapsed = 0;
  const timed = new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== "function" || name === "effects") {
        return typeof value === "function" ? value.bind(target) : value;
      }
      return async (...args: unknown[]) => {
        const at = performance.now();
        try {
          return await value.apply(target, args);
        } finally {
          elapsed += performance.now() - at;
        }
      };
    },
  });
  return { store: timed, elapsed: () => elapsed, reset: () => void (elapsed = 0) };
}

function summary(sessions: number, latencies: number[], byClient: number[][], seconds: number): ServeLoadResult {
  const medians = byClient.filter((list) => list.length).map((list) => quantile(list, 0.5));
  return {
    sessions,
    decisions: latencies.length,
    seconds: round(seconds),
    perSecond: Math.round(latencies.length / seconds),
    p50Ms: round(quantile(latencies, 0.5)),
    p99Ms: round(quantile(latencies, 0.99)),
    clientP50Ms: medians.length ? [round(Math.min(...medians)), round(Math.max(...medians))] : [0, 0],
  };
}

/** The `q` quantile of `values` (sorted in place); 0 when there are none. */
function quantile(values: number[], q: number): number {
  values.sort((a, b) => a - b);
  return values[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;
}

async function post(
  connection: HttpConnection,
  path: string,
  body: unknown,
  token?: string,
): Promise<Record<string, unknown>> {
  const answer = await connection.request(
    "POST",
    path,
    token ? { [SESSION_TOKEN_HEADER]: token } : {},
    JSON.stringify(body),
  );
  return JSON.parse(answer.body);
}

async function remove(connection: HttpConnection, id: string, token: string): Promise<void> {
  const answer = await connection.request("DELETE", `/v1/sessions/${id}`, { [SESSION_TOKEN_HEADER]: token });
  if (answer.status !== 200) throw new Error(`Cannot delete session "${id}": ${answer.body}`);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
