import assert from "node:assert/strict";
import { compilePolicy, Guard, makeLabel, PabError, parsePolicy, PolicyError } from "../mod.ts";
import type { PolicyIssue } from "../guard/mod.ts";
import { PROVGUARD_YAML } from "./_provguard_policy.ts";

const PROVGUARD_JSONC = `{
  "version": 1,
  "default": {
    "on_tainted": "confirm", // unknown tools are never silently allowed
  },
  "tools": {
    "read_inbox": { "output": "untrusted" },
    "get_contacts": { "output": "trusted" },
    /* the one tool with side effects */
    "send_email": {
      "on_tainted": "confirm",
      "args": {
        "to": { "require": "trusted", "allow": ["alice@corp.example"], "on_violation": "block" },
      },
    },
  },
}`;

/** Assert that loading fails with ERR_POLICY_INVALID, exactly these issues and the matching message. */
function assertPolicyIssues(load: () => unknown, source: string, issues: PolicyIssue[]): void {
  assert.throws(load, (error: unknown) => {
    assert.ok(error instanceof PolicyError, `expected a PolicyError, got ${error}`);
    assert.ok(error instanceof PabError);
    assert.equal(error.code, "ERR_POLICY_INVALID");
    assert.equal(error.name, "PolicyError");
    assert.equal(error.source, source);
    assert.deepEqual(
      [...error.issues].sort((a, b) => a.path.localeCompare(b.path)),
      [...issues].sort((a, b) => a.path.localeCompare(b.path)),
    );
    const count = issues.length === 1 ? "1 issue" : `${issues.length} issues`;
    const lines = error.issues.map((issue) => `  - at ${issue.path}: ${issue.message} (${issue.hint})`);
    assert.equal(error.message, `Cannot load policy "${source}": ${count}\n${lines.join("\n")}`);
    return true;
  });
}

Deno.test("parsePolicy() loads ProvGuard's published example policy unchanged", () => {
  const policy = parsePolicy(PROVGUARD_YAML, { source: "email_agent.yaml" });
  assert.equal(policy.source, "email_agent.yaml");
  // The library's defaults fill what the file does not say (SECURITY.md, "Library defaults").
  assert.deepEqual(policy.default, {
    onTainted: "confirm",
    outwardEmbedded: "trusted",
    confirmUntrustedFrom: "designated",
  });
  assert.deepEqual(Object.keys(policy.tools), ["read_inbox", "get_contacts", "send_email"]);
  assert.deepEqual(policy.tools.read_inbox.output, { kind: "label", label: makeLabel(["public"], "suspicious") });
  assert.deepEqual(policy.tools.get_contacts.output, { kind: "label", label: makeLabel(["public"], "trusted") });
  assert.equal(policy.tools.send_email.onTainted, "confirm");
  assert.equal(policy.tools.read_inbox.onTainted, undefined);
  assert.deepEqual(policy.tools.send_email.args, {
    to: { require: "trusted", allow: ["alice@corp.example"], onViolation: "block" },
  });
});

Deno.test("parsePolicy() reads the same policy from JSONC, comments and trailing commas included", () => {
  const yaml = parsePolicy(PROVGUARD_YAML, { source: "email_agent.yaml" });
  const jsonc = parsePolicy(PROVGUARD_JSONC, { source: "email_agent.jsonc" });
  assert.deepEqual({ ...jsonc, source: "" }, { ...yaml, source: "" });
  assert.deepEqual(parsePolicy(PROVGUARD_JSONC, { format: "jsonc" }).tools, yaml.tools);
});

Deno.test("parsePolicy() returns a deeply frozen policy", () => {
  const policy = parsePolicy(PROVGUARD_YAML);
  assert.ok(Object.isFrozen(policy));
  assert.throws(() => {
    (policy.tools.send_email.args.to.allow as string[]).push("eve@attacker.example");
  }, TypeError);
  assert.throws(() => {
    (policy.default as { onTainted: string }).onTainted = "allow";
  }, TypeError);
});

Deno.test("parsePolicy() lists every unknown key and wrong type at once, with paths and hints", () => {
  assertPolicyIssues(
    () =>
      parsePolicy(
        `
version: 1
default:
  on_tainted: maybe
tools:
  send_email:
    on_taintd: confirm
    needs_approval: "yes"
    args:
      to: {require: trusted, alow: ["alice@corp.example"]}
      cc: {allow: "bob@corp.example"}
  read_inbox:
    output: 5
`,
        { source: "typos.yaml" },
      ),
    "typos.yaml",
    [
      {
        path: "default.on_tainted",
        message: 'invalid value "maybe"',
        hint: 'use one of "allow", "confirm", "block", "pinned", "named"',
      },
      { path: "tools.send_email.on_taintd", message: 'unknown key "on_taintd"', hint: 'did you mean "on_tainted"?' },
      {
        path: "tools.send_email.needs_approval",
        message: 'expected boolean, got "yes"',
        hint: "write a boolean here",
      },
      { path: "tools.send_email.args.to.alow", message: 'unknown key "alow"', hint: 'did you mean "allow"?' },
      {
        path: "tools.send_email.args.cc.allow",
        message: 'expected array, got "bob@corp.example"',
        hint: "write an array here",
      },
      {
        path: "tools.read_inbox.output",
        message: "unexpected value 5",
        hint: 'write "trusted", "untrusted", "unlabelled", a label name, {readers, trust} or {catalogue: NAME}',
      },
    ],
  );
});

Deno.test("parsePolicy() lists every undefined label, group, catalogue, tool and mandate kind at once", () => {
  assertPolicyIssues(
    () =>
      parsePolicy(
        `
version: 1
readers:
  groups: [public, staff]
labels:
  hr_doc: {readers: [hr], trust: trusted}
catalogues:
  files:
    key: "{name}"
    entries:
      alice: secret
approvers:
  legal: {mandate: [recipent, guard-error]}
schemas:
  triage: {fields: {ok: bool}, merge: trusted, tools: [read_fiel]}
tools:
  read_file:
    output: {catalogue: fils}
  send_email:
    output: hr_dox
    recipients: [staf, {arg: to}]
`,
        { source: "undefined.yaml" },
      ),
    "undefined.yaml",
    [
      {
        path: "labels.hr_doc.readers.0",
        message: 'undefined reader group "hr"',
        hint: 'define "hr" under readers.groups, or use one of "public", "staff"',
      },
      {
        path: "catalogues.files.entries.alice",
        message: 'undefined label "secret"',
        hint: 'define "secret" under labels, or use one of "trusted", "untrusted", "hr_doc"',
      },
      { path: "approvers.legal.mandate.0", message: 'unknown gap kind "recipent"', hint: 'did you mean "recipient"?' },
      {
        path: "approvers.legal.mandate.1",
        message: 'unknown gap kind "guard-error"',
        hint: 'use one of "untrusted-argument", "invented-argument", "not-allowed", "tainted-context", "recipient", ' +
          '"trust", "prior", "no-prior", "approval", "unlabelled"',
      },
      {
        path: "tools.read_file.output.catalogue",
        message: 'undefined catalogue "fils"',
        hint: 'did you mean "files"?',
      },
      { path: "tools.send_email.output", message: 'undefined label "hr_dox"', hint: 'did you mean "hr_doc"?' },
      {
        path: "tools.send_email.recipients.0",
        message: 'undefined reader group "staf"',
        hint: 'did you mean "staff"?',
      },
      { path: "schemas.triage.tools.0", message: 'undefined tool "read_fiel"', hint: 'did you mean "read_file"?' },
    ],
  );
});

Deno.test("parsePolicy() rejects default on_tainted: allow", () => {
  assertPolicyIssues(
    () => parsePolicy("version: 1\ndefault:\n  on_tainted: allow\n", { source: "lax.yaml" }),
    "lax.yaml",
    [{
      path: "default.on_tainted",
      message: "the default may not be allow: tools the policy does not name would run silently after untrusted input",
      hint: 'use "confirm" or "block", and set on_tainted: allow on the tools that may run anyway',
    }],
  );
});

Deno.test("parsePolicy() rejects rules that constrain nothing and effects no tool writes", () => {
  assertPolicyIssues(
    () =>
      parsePolicy(
        `
version: 1
tools:
  send_email:
    args:
      to: {on_violation: confirm}
  send_contract_terms:
    requires_prior: [legal.precleared]
`,
        { source: "loose.yaml" },
      ),
    "loose.yaml",
    [
      {
        path: "tools.send_email.args.to",
        message: "the rule requires no source, lists no allowed values and checks no embedded links",
        hint: "add require: trusted, or allow: [...]",
      },
      {
        path: "tools.send_contract_terms.requires_prior.0",
        message: 'no tool writes the effect "legal.precleared"',
        hint: 'add "legal.precleared" to the effects of the tool that performs it',
      },
    ],
  );
});

Deno.test("parsePolicy() rejects a wrong version and a missing version", () => {
  assertPolicyIssues(() => parsePolicy("version: 2\n", { source: "v2.yaml" }), "v2.yaml", [
    { path: "version", message: "invalid value 2", hint: "use one of 1" },
  ]);
  assertPolicyIssues(() => compilePolicy({ tools: {} }, "inline"), "inline", [
    { path: "version", message: "missing required key", hint: 'add "version" with one of 1' },
  ]);
});

Deno.test("parsePolicy() reports YAML and JSONC syntax errors with their position", () => {
  assertPolicyIssues(() => parsePolicy("version: 1\ntools: [\n", { source: "broken.yaml" }), "broken.yaml", [
    { path: "line 3, column 1", message: "invalid YAML: deficient indentation", hint: "fix the YAML syntax there" },
  ]);
  assertPolicyIssues(
    () => parsePolicy('{\n  "version": 1\n  "tools": {}\n}', { source: "broken.jsonc" }),
    "broken.jsonc",
    [{ path: "line 3, column 3", message: "invalid JSONC: CommaExpected", hint: "fix the JSON syntax there" }],
  );
});

Deno.test("new Guard() rejects approver rules the policy does not name, and approvers without a rule", () => {
  const policy = parsePolicy(
    "version: 1\napprovers:\n  legal: {mandate: [recipient]}\ntools:\n  share: {output: trusted}\n",
    { source: "approvers.yaml" },
  );
  assert.throws(
    () => new Guard(policy, { approvers: { legal: () => true, manager: () => true } }),
    (error: unknown) =>
      error instanceof TypeError &&
      error.message === 'Cannot register approver "manager": policy "approvers.yaml" does not name it under approvers',
  );
  assert.throws(
    () => new Guard(policy),
    (error: unknown) =>
      error instanceof TypeError &&
      error.message ===
        'Cannot make a guard: policy "approvers.yaml" names approver "legal" but no rule is registered for it (options.approvers.legal)',
  );
  assert.throws(
    () => new Guard({ version: 2 } as never),
    (error: unknown) =>
      error instanceof TypeError &&
      error.message === "Cannot make a guard: pass a policy from parsePolicy() or compilePolicy()",
  );
});

Deno.test("parsePolicy() rejects an empty allow list, which would otherwise allow every value", () => {
  assertPolicyIssues(
    () => parsePolicy("version: 1\ntools:\n  pay:\n    args:\n      iban: {allow: []}\n", { source: "empty.yaml" }),
    "empty.yaml",
    [{
      path: "tools.pay.args.iban.allow",
      message: "an empty allow list is ambiguous: it could mean no value or every value",
      hint: "list at least one value, or remove allow",
    }],
  );
});

Deno.test("parsePolicy() keeps YAML allow-list entries as written: 0012345678 stays text", () => {
  const policy = parsePolicy(
    "version: 1\ntools:\n  pay:\n    args:\n      account: {allow: [0012345678, 1e3, 0x10, true, ~, '007']}\n",
    { source: "accounts.yaml" },
  );
  assert.deepEqual(policy.tools.pay.args.account.allow, ["0012345678", "1e3", "0x10", "true", "~", "007"]);
  const guard = new Guard(policy);
  assert.equal(guard.decide("pay", { account: "0012345678" }).outcome, "allow");
  assert.equal(guard.decide("pay", { account: "12345678" }).outcome, "block");
  assert.equal(guard.decide("pay", { account: 1000 }).outcome, "block");
});

Deno.test("compilePolicy() rejects non-string allow-list entries with a hint to quote them", () => {
  assertPolicyIssues(
    () => compilePolicy({ version: 1, tools: { pay: { args: { account: { allow: [12345678] } } } } }, "p.json"),
    "p.json",
    [{
      path: "tools.pay.args.account.allow.0",
      message: "expected a string, got 12345678",
      hint: 'quote it, as "12345678", so the allowed value keeps its exact text',
    }],
  );
});

Deno.test("parsePolicy() rejects duplicate keys in JSONC and YAML, so a later rule cannot replace a stricter one", () => {
  assertPolicyIssues(
    () =>
      parsePolicy(
        '{"version": 1, "tools": {"send": {"args": {"to": {"require": "trusted"}}}, "send": {"output": "trusted"}}}',
        { source: "dup.jsonc" },
      ),
    "dup.jsonc",
    [{
      path: "tools.send",
      message: 'duplicate key "send" at line 1, column 76',
      hint: "write each key once; merge the two entries",
    }],
  );
  assert.throws(
    () =>
      parsePolicy("version: 1\ntools:\n  send: {output: trusted}\n  send: {output: untrusted}\n", { source: "d.yaml" }),
    (error: unknown) => error instanceof PolicyError && /duplicated mapping key/.test(error.message),
  );
});

Deno.test("parsePolicy() and compilePolicy() reject __proto__, constructor and prototype keys anywhere", () => {
  for (const key of ["__proto__", "constructor", "prototype"]) {
    const issue = {
      path: `tools.send.args.${key}`,
      message: `the key "${key}" is not allowed`,
      hint: "rename it: __proto__, constructor and prototype could change how objects behave",
    };
    assertPolicyIssues(
      () =>
        parsePolicy(`version: 1\ntools:\n  send:\n    args:\n      ${key}: {require: trusted}\n`, { source: "p.yaml" }),
      "p.yaml",
      [issue],
    );
    assertPolicyIssues(
      () =>
        parsePolicy(`{"version": 1, "tools": {"send": {"args": {"${key}": {"require": "trusted"}}}}}`, {
          source: "p.jsonc",
        }),
      "p.jsonc",
      [issue],
    );
    assertPolicyIssues(
      () =>
        compilePolicy(JSON.parse(`{"version": 1, "tools": {"send": {"args": {"${key}": {"require": "trusted"}}}}}`)),
      "policy",
      [issue],
    );
  }
});

Deno.test("parsePolicy() accepts effects with arguments and rejects malformed ones", () => {
  const policy = parsePolicy(
    'version: 1\ntools:\n  preclear: {effects: ["legal.precleared{ client }"]}\n  send: {requires_prior: ["legal.precleared{client}"]}\n',
  );
  assert.deepEqual(policy.tools.preclear.effects, ["legal.precleared{client}"]);
  assertPolicyIssues(
    () => parsePolicy('version: 1\ntools:\n  x: {effects: ["a b"], once: "c{"}\n', { source: "fx.yaml" }),
    "fx.yaml",
    [
      {
        path: "tools.x.effects.0",
        message: 'invalid effect "a b"',
        hint: "write a name such as legal.precleared, optionally with arguments: legal.precleared{client}",
      },
      {
        path: "tools.x.once",
        message: 'invalid effect "c{"',
        hint: "write a name such as legal.precleared, optionally with arguments: legal.precleared{client}",
      },
    ],
  );
});
