/**
 * A test double of `pab serve`'s HTTP API (the contract in TEAM.md, with serve's error codes), for the Python bridge's tests while the real
 * `pab serve` is not on this branch. It is NOT pab serve: no store, no token, no limits. It runs the real `Guard`, so
 * its decisions are pab's own. Two-step dispatch is a stand-in over `guard.propose()`: the proposal's `run` waits
 * for the commit. The tests use the real `pab serve` whenever `cli.ts serve --help` works.
 *
 * Usage: `deno run --allow-net=localhost --allow-read adapters/python/tests/serve_double.ts --policy FILE --port N`
 *
 * @module
 */
import { parseArgs } from "node:util";
import { explainDecision, Guard, parsePolicy, type Policy, type Ruling } from "../../../mod.ts";

type Json = Record<string, unknown>;

interface Pending {
  readonly finish: (outcome: { output: unknown } | { error: string }) => void;
  readonly done: () => Promise<unknown>;
}

interface Session {
  readonly guard: Guard;
  readonly rulings: Map<string, Ruling | { readonly id: string; readonly approver: "user"; readonly call: string }>;
  readonly pending: Map<string, Pending>;
}

class HttpError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

function callKey(tool: string, args: unknown): string {
  return JSON.stringify([tool, args]);
}

function body(value: unknown): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HttpError(400, "ERR_REQUEST_JSON", "Cannot read the request: the body must be a JSON object");
  }
  return value as Json;
}

function text(value: Json, key: string): string {
  if (typeof value[key] !== "string") {
    throw new HttpError(400, "ERR_REQUEST_INVALID", `Cannot read the request: "${key}" must be a string`);
  }
  return value[key] as string;
}

function args(value: Json): Record<string, unknown> {
  const found = value.args ?? {};
  if (typeof found !== "object" || found === null || Array.isArray(found)) {
    throw new HttpError(400, "ERR_REQUEST_INVALID", 'Cannot read the request: "args" must be an object');
  }
  return found as Record<string, unknown>;
}

/** Serve the contract's routes for one policy. */
export function handler(policy: Policy): (request: Request) => Promise<Response> {
  const sessions = new Map<string, Session>();
  let counter = 0;
  const session = (id: string): Session => {
    const found = sessions.get(id);
    if (!found) throw new HttpError(404, "ERR_SESSION_UNKNOWN", `Cannot find session "${id}"`);
    return found;
  };
  const routes: Record<string, (s: Session, input: Json) => Promise<unknown> | unknown> = {
    messages(s, input) {
      const role = text(input, "role");
      if (role !== "system" && role !== "user") {
        throw new HttpError(
          400,
          "ERR_REQUEST_INVALID",
          `Cannot add a message: role "${role}" is not "system" or "user"`,
        );
      }
      s.guard[role](text(input, "content"));
      return { ok: true };
    },
    results(s, input) {
      const output = typeof input.error === "string" ? input.error : input.output;
      s.guard.record(text(input, "tool"), output, { args: args(input) });
      return { ok: true };
    },
    decide(s, input) {
      const decision = s.guard.decide(text(input, "tool"), args(input));
      return { decision, explanation: explainDecision(decision) };
    },
    plan(s, input) {
      return { recovery: s.guard.planRecovery(text(input, "tool"), args(input)) };
    },
    rulings(s, input) {
      const [approver, tool, callArgs] = [text(input, "approver"), text(input, "tool"), args(input)];
      const ruling = approver === "user"
        ? { id: `user#${++counter}`, approver: "user" as const, call: callKey(tool, callArgs) }
        : s.guard.requestRuling(approver, tool, callArgs);
      s.rulings.set(ruling.id, ruling);
      return { ruling: { ...ruling, tool } };
    },
    propose(s, input) {
      return propose(s, text(input, "tool"), args(input), input);
    },
    async commit(s, input) {
      const id = text(input, "reservation");
      const pending = s.pending.get(id);
      if (!pending) throw new HttpError(404, "ERR_RESERVATION_UNKNOWN", `Cannot commit reservation "${id}"`);
      s.pending.delete(id);
      pending.finish(typeof input.error === "string" ? { error: input.error } : { output: input.output });
      await pending.done().catch(() => {});
      return { ok: true };
    },
  };
  async function propose(s: Session, tool: string, callArgs: Record<string, unknown>, input: Json) {
    const ids = Array.isArray(input.rulings) ? input.rulings.map(String) : [];
    const given = ids.map((id) => s.rulings.get(id));
    const confirmed = given.some((r) => r && "call" in r && r.call === callKey(tool, callArgs));
    const rulings = given.filter((r): r is Ruling => r !== undefined && !("call" in r));
    let reached!: (pending: Pending) => void;
    let running: Promise<unknown> = Promise.resolve();
    const reservedAt = new Promise<Pending>((resolve) => reached = resolve);
    const result = s.guard.propose(tool, callArgs, {
      accept: input.accept === true,
      rulings,
      confirm: () => confirmed,
      run: () =>
        new Promise((resolve, reject) => {
          const finish = (o: { output: unknown } | { error: string }) =>
            "error" in o ? reject(new Error(o.error)) : resolve(o.output);
          reached({ finish, done: () => running });
        }),
    });
    running = result;
    const first = await Promise.race([reservedAt, result]);
    if ("finish" in first) {
      const id = `r_${++counter}`;
      s.pending.set(id, first as Pending);
      const decision = s.guard.decide(tool, callArgs);
      return { status: "reserved", decision, explanation: explainDecision(decision), reservation: { id, tool } };
    }
    if (first.status === "done") throw new HttpError(500, "ERR_INTERNAL", "Cannot reserve: the call ran already");
    return { ...first, explanation: explainDecision(first.decision) };
  }
  return async (request) => {
    try {
      const path = new URL(request.url).pathname.split("/").filter(Boolean);
      if (request.method === "GET" && path.join("/") === "v1/health") return json(200, { ok: true, version: "double" });
      if (request.method === "POST" && path.join("/") === "v1/sessions") {
        const id = `s_${++counter}`;
        sessions.set(id, { guard: new Guard(policy), rulings: new Map(), pending: new Map() });
        return json(201, { session: id, token: `pst_double_${id}` });
      }
      if (path[0] === "v1" && path[1] === "sessions" && path.length === 4) {
        const s = session(path[2]);
        if (request.method === "GET" && path[3] === "audit") return json(200, { events: s.guard.ledger.log });
        const route = Object.hasOwn(routes, path[3]) ? routes[path[3]] : undefined;
        if (request.method === "POST" && route) {
          const input = body(await request.json().catch(() => null));
          return json(200, await route(s, input));
        }
      }
      throw new HttpError(404, "ERR_NOT_FOUND", `Cannot ${request.method} ${new URL(request.url).pathname}`);
    } catch (error) {
      if (error instanceof HttpError) {
        return json(error.status, { error: { code: error.code, message: error.message } });
      }
      const code = (error as { code?: unknown }).code;
      const message = error instanceof Error ? error.message : String(error);
      return json(400, { error: { code: typeof code === "string" ? code : "ERR_REQUEST_INVALID", message } });
    }
  };
}

function json(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Deno.args, options: { policy: { type: "string" }, port: { type: "string" } } });
  if (!values.policy || !values.port) throw new Error("Usage: serve_double.ts --policy FILE --port N");
  const policy = parsePolicy(await Deno.readTextFile(values.policy), { source: values.policy });
  Deno.serve({ hostname: "localhost", port: Number(values.port), onListen: () => {} }, handler(policy));
}
