/**
 * Hold a SQLite file's write lock from another process (`BEGIN EXCLUSIVE`
 * through `node:sqlite` in a child Deno), as another program or a stuck
 * writer would, until released.
 */

/** A lock held by a child process. */
export interface HeldLock {
  /** Let the lock go (the child is killed, and the lock goes with it). */
  release(): Promise<void>;
}

const HOLDER = `
import { DatabaseSync } from "node:sqlite";
const db = new DatabaseSync(Deno.args[0]);
db.exec("BEGIN EXCLUSIVE");
console.log("locked");
// Until the parent kills it, or at most the time given (a frozen parent cannot).
await new Promise((resolve) => setTimeout(resolve, Number(Deno.args[1])));
db.exec("ROLLBACK");
db.close();
`;

/** Take the write lock of the SQLite file at `path` in a child process, for at most `maxMs`; resolves once it is held. */
export async function holdLock(path: string, maxMs = 6_000): Promise<HeldLock> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", HOLDER, path, String(maxMs)],
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let said = "";
  while (!said.includes("locked")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the lock holder for "${path}" exited before it held the lock`);
    said += value;
  }
  return {
    async release() {
      try {
        child.kill("SIGKILL"); // the lock goes with the process
      } catch {
        // It ended already.
      }
      await reader.cancel();
      await child.status;
    },
  };
}
