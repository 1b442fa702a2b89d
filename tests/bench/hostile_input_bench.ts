/**
 * Hostile, long arguments cost linear time: looking for embedded links in a
 * body ten times longer takes about ten times as long (no backtracking blow-up).
 *
 * Run with `deno task bench`; the 10 KB row is the baseline.
 *
 * @module
 */
import { findEmbeddedValues, tokenize } from "../../harvest/mod.ts";
import { Guard, parsePolicy } from "../../mod.ts";

const SHAPES: Record<string, (size: number) => string> = {
  "letters only": (size) => "a".repeat(size),
  "dotted": (size) => "a.".repeat(size / 2),
  "at signs": (size) => "a@".repeat(size / 2),
  "schemes": (size) => "https://".repeat(size / 8),
  "grouped digits": (size) => "1,".repeat(size / 2),
  "phone-like groups": (size) => "+1 (2) ".repeat(size / 8),
  "IBAN-like groups": (size) => "DE89 3704 ".repeat(size / 10),
  "zero-width and full-width dots": (size) => "a\u200B．".repeat(size / 3),
  "character references": (size) => "e&#46;x&period;".repeat(size / 15),
  "unfinished references": (size) => "&#0000&amp".repeat(size / 10),
  "percent-encoded hosts": (size) => "http://a%2e%".repeat(size / 13),
  "bracketed hosts": (size) => "http://[::1:".repeat(size / 12),
};

for (const [shape, make] of Object.entries(SHAPES)) {
  for (const size of [10_000, 100_000]) {
    const text = make(size);
    Deno.bench({
      name: `findEmbeddedValues, ${shape}, ${size / 1000} KB`,
      group: `embedded links in hostile text: ${shape}`,
      baseline: size === 10_000,
      fn() {
        findEmbeddedValues(text);
        tokenize(text);
      },
    });
  }
}

const POLICY = parsePolicy("version: 1\ntools:\n  search: { output: untrusted }\n");

for (const leaves of [1_000, 10_000]) {
  const output = Array.from({ length: leaves }, (_, i) => ({ id: i, subject: `message ${i} from someone` }));
  Deno.bench({
    name: `Guard.record, untrusted output with ${leaves / 1000}k items`,
    group: "recording a large structured output",
    baseline: leaves === 1_000,
    fn() {
      new Guard(POLICY).record("search", JSON.stringify(output), { data: output });
    },
  });
}
