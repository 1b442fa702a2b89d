import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type CallView,
  escapeHtml,
  renderBenchReport,
  renderCall,
  renderCheckReport,
  renderTimeline,
  traceView,
} from "../adapters/html/mod.ts";
import { readTrace, replayTrace } from "../adapters/trace/mod.ts";
import { parsePolicy } from "../mod.ts";

const EXAMPLES = new URL("../traces/examples/", import.meta.url);
/** Every tag and attribute the renderers write themselves. */
const TAGS = new Set([
  "article",
  "header",
  "span",
  "code",
  "h1",
  "h2",
  "h3",
  "h4",
  "ul",
  "li",
  "p",
  "ol",
  "section",
  "table",
  "div",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "main",
  "html",
  "head",
  "body",
  "meta",
  "title",
  "style",
]);
const ATTRIBUTES = new Set([
  "class",
  "data-call",
  "data-run",
  "aria-label",
  "lang",
  "charset",
  "http-equiv",
  "content",
  "name",
]);

/** Tags and attributes in `html` outside the renderers' own vocabulary. */
function foreignMarkup(html: string): string[] {
  const found: string[] = [];
  const withoutStyle = html.replace(/<style>[\s\S]*?<\/style>/, "<style></style>");
  for (const tag of withoutStyle.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)) {
    if (!TAGS.has(tag[1].toLowerCase())) found.push(`<${tag[1]}>`);
    for (const attribute of tag[2].matchAll(/\s([^\s=]+)(?:="[^"]*")?/g)) {
      if (!ATTRIBUTES.has(attribute[1].toLowerCase())) found.push(`${tag[1]} ${attribute[1]}`);
    }
  }
  return found;
}

const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: fc.constantFrom("<", ">", "&", '"', "'", "=", "/", " ", "a", "\u001b", "\u2028", "\n") }),
  fc.constantFrom(
    '<img src=x onerror="alert(1)">',
    '"><script>alert(1)</script>',
    "' onmouseover='alert(1)",
    "</article><iframe src=//evil.example>",
    "\u001b[32mALLOW\u001b[0m",
  ),
);

function callOf(text: string): CallView {
  return {
    id: text,
    tool: text,
    args: { [text]: text, nested: { [text]: [text] } },
    actor: text,
    outcome: text,
    reasons: [{ code: text, message: text }],
    vouching: [{ argument: text, value: text, sources: [text, text] }],
    notes: [{ code: text, message: text }],
    wayToYes: text,
    waived: [text],
    status: text,
  };
}

Deno.test("escapeHtml() leaves no markup character and makes control characters visible", () => {
  fc.assert(fc.property(hostile, (text) => {
    const escaped = escapeHtml(text);
    assert.doesNotMatch(escaped, /[<>"']/);
    // deno-lint-ignore no-control-regex
    assert.doesNotMatch(escaped, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
    assert.doesNotMatch(escaped.replace(/&(amp|lt|gt|quot|#39);/g, ""), /&/);
  }));
});

Deno.test("renderCall(), renderTimeline() and the reports write only their own markup, whatever the text", () => {
  fc.assert(
    fc.property(hostile, (text) => {
      const call = callOf(text);
      const timeline = [{ event: text, label: text, trust: text, outcome: text }];
      const pages = [
        renderCall(call),
        renderTimeline(timeline),
        renderCheckReport({ policy: text, traces: [{ file: text, trace: text, calls: [call], timeline }] }),
        renderBenchReport({
          title: text,
          suites: [{
            suite: text,
            counts: [{ name: text, value: text }],
            runs: [{
              name: text,
              kind: "attack",
              outcome: text,
              detail: text,
              trace: { file: text, trace: text, calls: [call], timeline },
            }],
          }],
        }),
      ];
      for (const html of pages) assert.deepEqual(foreignMarkup(html), [], html);
    }),
    { numRuns: 300 },
  );
});

Deno.test("traceView() shows the calls exactly as pab check decides them, and the label over time", async () => {
  for (
    const [traceFile, policyFile] of [["hijack.pab.jsonl", "demo.policy.yaml"], [
      "hijack.openai.json",
      "provenance.policy.yaml",
    ]]
  ) {
    const trace = readTrace(await Deno.readTextFile(new URL(traceFile, EXAMPLES)), { source: traceFile });
    const policy = parsePolicy(await Deno.readTextFile(new URL(policyFile, EXAMPLES)), { source: policyFile });
    const view = await traceView(traceFile, trace, policy);
    const replay = await replayTrace(trace, policy);
    assert.deepEqual(
      view.calls.map((call) => [call.id, call.outcome]),
      replay.calls.map((call) => [call.id, call.decision]),
    );
    const trusts = view.timeline.map((step) => step.trust);
    assert.equal(trusts[0], "trusted");
    assert.equal(trusts.at(-1), "suspicious"); // the inbox was read
    assert.deepEqual(
      view.timeline.filter((step) => step.outcome).map((step) => step.outcome),
      replay.calls.map((call) => call.decision),
    );
  }
});

Deno.test("renderCheckReport() draws every call with its reasons, vouching sources and way to yes", async () => {
  const trace = readTrace(await Deno.readTextFile(new URL("hijack.pab.jsonl", EXAMPLES)), {
    source: "hijack.pab.jsonl",
  });
  const policy = parsePolicy(await Deno.readTextFile(new URL("demo.policy.yaml", EXAMPLES)), {
    source: "demo.policy.yaml",
  });
  const html = renderCheckReport({
    policy: "demo.policy.yaml",
    traces: [await traceView("hijack.pab.jsonl", trace, policy)],
  });
  assert.match(html, /3 calls in 1 trace: 1 allowed, 1 to confirm, 1 blocked/);
  assert.match(html, /<article class="call outcome-block" data-call="call_send_eve">/);
  assert.match(html, /untrusted-argument<\/span> to=&#39;eve@attacker\.example&#39; appears only in untrusted input/);
  assert.match(html, /to<\/span>=&#39;alice@corp\.example&#39; comes from <span class="source">user<\/span>/);
  assert.match(html, /way to yes: confirm with the user \(covers tainted-context\)/);
  assert.match(html, /<ol class="timeline"/);
  assert.doesNotMatch(html, /<script|https?:\/\//);
});
