import assert from "node:assert/strict";
import { denoIo, readInputChunks, readInputText } from "../adapters/cli/mod.ts";

/** A file of `size` bytes of varied UTF-8 text (multi-byte characters cross the 64 KB reads). */
async function textFile(size: number): Promise<{ path: string; text: string }> {
  const path = await Deno.makeTempFile({ dir: "/tmp", prefix: "pab-read-", suffix: ".jsonl" });
  let text = "";
  for (let i = 0; text.length < size; i++) text += `{"line":${i},"text":"héllo wörld ✓ ${"x".repeat(i % 97)}"}\n`;
  await Deno.writeTextFile(path, text);
  return { path, text };
}

Deno.test("readInputText() reads a file larger than one read whole and intact, though each read reuses one buffer", async () => {
  const { path, text } = await textFile(300_000);
  try {
    assert.equal(await readInputText(path, denoIo(), { what: "trace" }), text);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("readInputChunks() decodes a large file piece by piece into the same text", async () => {
  const { path, text } = await textFile(300_000);
  try {
    let read = "";
    let pieces = 0;
    for await (const piece of readInputChunks(path, denoIo(), { what: "trace" })) {
      read += piece;
      pieces++;
    }
    assert.equal(read, text);
    assert.ok(pieces >= 5, `${pieces} pieces`);
    await assert.rejects(
      async () => {
        for await (const _ of readInputChunks(path, denoIo(), { what: "trace", maxBytes: 100_000 }));
      },
      { code: "ERR_CLI_TOO_LARGE" },
    );
  } finally {
    await Deno.remove(path);
  }
});
