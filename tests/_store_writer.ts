// A writer for the crash tests: sessions on a store file, driven through
// SessionHost as `pab serve` drives them (messages, results, once tools,
// approver rulings, reservations committed, abandoned or left open), as fast
// as it can until it is killed. It prints one line per step a client would
// have seen answered: `R session reservation` (reserved), `C session
// reservation` (finished).
// Run: deno run --unstable-kv --allow-read --allow-write=/tmp tests/_store_writer.ts STORE
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { SessionHost } from "../adapters/serve/mod.ts";
import { openStore } from "../adapters/store/mod.ts";
import { SERVE_POLICY_YAML } from "./_serve_fixtures.ts";

const store = await openStore(Deno.args[0], { repair: false });
const host = new SessionHost(parsePolicy(SERVE_POLICY_YAML, { source: "serve.yaml" }), store);
const encoder = new TextEncoder();
const say = (line: string) => Deno.stdout.writeSync(encoder.encode(`${line}\n`));
say("ready");
for (let n = 0;; n++) {
  const shared = n % 3 === 0;
  const id = await host.create(shared ? { ledger: "shared" } : {});
  await host.message(id, "user", `publish the release, round ${n}`);
  await host.result(id, { tool: "read_inbox", args: {}, output: `mail ${n}`, ran: true });
  const tool = n % 2 ? "publish_release" : "refund";
  const rulings = tool === "refund"
    ? [(await host.ruling(id, { approver: "manager", tool, args: { amount: n } })).id]
    : [];
  const args = tool === "refund" ? { amount: n } : {};
  const proposed = await host.propose(id, { tool, args, rulings });
  if (proposed.status !== "reserved") continue;
  say(`R ${id} ${proposed.reservation.id}`);
  const fate = n % 4;
  if (fate === 3) continue; // the client went away: the reservation stays open
  await host.commit(
    id,
    fate === 2 ? { reservation: proposed.reservation.id, error: "tool failed" } : {
      reservation: proposed.reservation.id,
      output: `done ${n}`,
    },
  );
  say(`C ${id} ${proposed.reservation.id}`);
}
