/**
 * Laws of the release's small parts: `SHA256SUMS` lists every file once,
 * sorted, with its digest, whatever order the files come in; a changelog
 * gives back each version's own section; a door is never published twice.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { npmDoors, npmManifest } from "../adapters/build/npm_manifest.ts";
import { changelogSection } from "../adapters/build/npm_package.ts";
import { sha256Sums } from "../adapters/build/release.ts";

const fileName = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,15}$/);
const files = fc.uniqueArray(fc.record({ name: fileName, bytes: fc.uint8Array({ maxLength: 64 }) }), {
  selector: (file) => file.name,
  maxLength: 8,
});

async function hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

Deno.test("sha256Sums() lists every file once, sorted by name, with its own digest, in any input order", async () => {
  await fc.assert(
    fc.asyncProperty(files, fc.infiniteStream(fc.nat()), async (list, seeds) => {
      const text = await sha256Sums(list);
      const shuffled = [...list].sort(() => (seeds.next().value % 3) - 1);
      assert.equal(await sha256Sums(shuffled), text);
      const lines = text.split("\n").slice(0, -1);
      assert.equal(lines.length, list.length);
      const names = lines.map((line) => line.slice(66));
      assert.deepEqual(names, [...names].sort());
      for (const line of lines) {
        const file = list.find((candidate) => candidate.name === line.slice(66))!;
        assert.equal(line, `${await hex(file.bytes)}  ${file.name}`);
      }
    }),
    { numRuns: 100 },
  );
});

Deno.test("changelogSection() gives back each version's own section and refuses a version it lacks", () => {
  const version = fc.tuple(fc.nat(20), fc.nat(20), fc.nat(20)).map((parts) => parts.join("."));
  const body = fc.array(fc.stringMatching(/^- [a-z](?:[a-z ]{0,20}[a-z])?$/), { minLength: 1, maxLength: 3 }).map((
    lines,
  ) => lines.join("\n"));
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.tuple(version, body), { selector: ([v]) => v, maxLength: 5 }),
      version,
      (sections, other) => {
        const text = `# Changelog\n\nIntro.\n\n${sections.map(([v, b]) => `## ${v}\n\n${b}\n`).join("\n")}`;
        for (const [v, b] of sections) assert.equal(changelogSection(text, v), b);
        if (!sections.some(([v]) => v === other)) {
          assert.throws(() => changelogSection(text, other), /has no "## .*" section/);
        }
      },
    ),
  );
});

Deno.test("npmManifest() maps each deno.json door but ./cli to one npm subpath, module and declarations file", () => {
  const door = fc.stringMatching(/^[a-z][a-z-]{0,10}$/).map((name) => `./${name}`);
  fc.assert(
    fc.property(fc.uniqueArray(door, { maxLength: 6 }), fc.boolean(), (names, withCli) => {
      const exports: Record<string, string> = { ".": "./mod.ts" };
      for (const name of names) exports[name] = `./adapters/${name.slice(2).replaceAll("-", "_")}/mod.ts`;
      if (withCli) exports["./cli"] = "./cli.ts";
      const doors = npmDoors(exports);
      const manifest = npmManifest({ name: "@pab/pab", version: "1.0.0", license: "MIT", exports }, doors);
      const published = Object.keys(manifest.exports as object);
      assert.deepEqual(published, Object.keys(exports).filter((name) => name !== "./cli"));
      assert.equal(new Set(doors.map((d) => d.types)).size, doors.length);
      assert.equal(new Set(doors.map((d) => d.module)).size, doors.length);
    }),
  );
});
