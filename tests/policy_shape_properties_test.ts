/**
 * The policy schema's hand-written shapes (guard/policy/_shape.ts) decide every value as zod/mini did: the same
 * issues (code, path, details, order) and the same parsed value, on random policy-like values and on the odd ones a
 * JavaScript caller can pass (no prototype, a class instance, symbol keys, unsafe integers).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { policySchema } from "../guard/policy/_schema.ts";
import { KNOWN_KEYS } from "../guard/policy/_schema.ts";
import { parseShape } from "../guard/policy/_shape.ts";
import { policySchema as zodSchema } from "./_zod_policy_schema.ts";

/** What a parse gives, or the kind of error it throws (a `length` that cannot be compared, as zod's check found). */
function outcome(parse: () => { success: true; data: unknown } | { success: false; issues: unknown }) {
  try {
    return parse();
  } catch (error) {
    return { threw: (error as Error).constructor.name };
  }
}

function both(value: unknown) {
  return {
    zod: outcome(() => {
      const zod = zodSchema.safeParse(value, { reportInput: true });
      return zod.success ? { success: true, data: zod.data } : { success: false, issues: zod.error.issues };
    }),
    ours: outcome(() => {
      const ours = parseShape(policySchema, value);
      return ours.success ? { success: true, data: ours.data } : { success: false, issues: ours.issues };
    }),
  };
}

function assertSame(value: unknown): void {
  const { zod, ours } = both(value);
  assert.deepEqual(ours, zod);
}

const WORDS = [
  ...KNOWN_KEYS,
  "send_email",
  "read_inbox",
  "to",
  "legal",
  "length",
  "all",
  "trusted",
  "attested",
  "suspicious",
  "untrusted",
  "unlabelled",
  "confirm",
  "block",
  "allow",
  "pinned",
  "named",
  "designated",
  "any",
  "off",
  "bool",
  "",
];

const scalar = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.string({ maxLength: 4 }),
  fc.constantFrom(1, 0, 2, -1, 1.5, 2 ** 60, -(2 ** 60), Number.NaN, Infinity, true, false, null, undefined),
);

const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, tie("array"), tie("object"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 3 }),
  object: fc.dictionary(fc.constantFrom(...WORDS), tie("value"), { maxKeys: 4 }),
}));

const policyLike = fc.record({
  version: fc.oneof(fc.constant(1), scalar),
  default: fc.option(value, { nil: undefined }),
  readers: fc.option(value, { nil: undefined }),
  labels: fc.option(fc.dictionary(fc.constantFrom("legal", "x"), value, { maxKeys: 2 }), { nil: undefined }),
  tools: fc.option(fc.dictionary(fc.constantFrom("send_email", "read_inbox"), value, { maxKeys: 2 }), {
    nil: undefined,
  }),
  schemas: fc.option(value, { nil: undefined }),
  casts: fc.option(value, { nil: undefined }),
  approvers: fc.option(value, { nil: undefined }),
  catalogues: fc.option(value, { nil: undefined }),
}, { requiredKeys: ["version"] });

Deno.test("the policy shapes report what zod/mini reported, issue for issue, on random policy-like values", () => {
  fc.assert(fc.property(fc.oneof(policyLike, value), (raw) => assertSame(raw)), { numRuns: 3000 });
});

Deno.test("the policy shapes parse a valid policy to what zod/mini parsed it to", () => {
  const tool = {
    output: { readers: ["legal"], trust: "trusted" },
    outward: true,
    untrusted_fields: ["body"],
    trusted_fields: ["id"],
    on_tainted: "pinned",
    args: { to: { require: "trusted", allow: ["a"], embedded: "off", on_violation: "confirm" } },
    recipients: ["legal", { arg: "to" }],
    min_trust: "attested",
    effects: ["sent"],
    requires_prior: ["a"],
    requires_no_prior: ["b"],
    once: "x",
    needs_approval: false,
    prerequisite: { args: { a: 1, b: [null] } },
  };
  const policy = {
    version: 1,
    default: { on_tainted: "confirm", outward_embedded: "trusted", confirm_untrusted_from: "named" },
    readers: { groups: ["legal", "public"], directory: { "a@b.example": "legal" }, unknown: "public" },
    labels: { legal: { readers: "all", trust: "trusted" } },
    catalogues: { files: { key: "name", entries: { a: "legal", b: { readers: ["legal"], trust: "attested" } } } },
    approvers: { counsel: { mandate: ["tainted-context"] } },
    schemas: {
      s: {
        fields: { a: "bool", b: { bool: true }, c: { int: { min: 1, max: 2 } }, d: { enum: ["x"] } },
        merge: "legal",
        tools: ["send_email"],
      },
    },
    casts: { read_inbox: { cast: "c", ceiling: "legal" } },
    tools: { send_email: tool, read_inbox: null, other: { output: { catalogue: "files" }, optional: undefined } },
  };
  const { zod, ours } = both(policy);
  assert.equal("success" in zod && zod.success, false); // "optional" is not a key
  assert.deepEqual(ours, zod);
  delete (policy.tools.other as Record<string, unknown>).optional;
  const valid = both(policy);
  assert.equal("success" in valid.zod && valid.zod.success, true);
  assert.deepEqual(valid.ours, valid.zod);
});

Deno.test("the policy shapes agree with zod/mini on values only JavaScript can pass", () => {
  class Tools {
    send_email = { output: "trusted" };
  }
  const noPrototype = Object.assign(Object.create(null), { version: 1 });
  const inherited = Object.assign(Object.create({ extra: 1 }), { version: 1 });
  const symbolKey = { version: 1, tools: { [Symbol("s")]: null, a: null } };
  const hidden = Object.defineProperty({ version: 1, tools: {} }, "secret", { value: 1, enumerable: false });
  for (
    const raw of [
      noPrototype,
      inherited,
      symbolKey,
      hidden,
      { version: 1, tools: new Tools() },
      { version: 1, tools: Object.create(null) },
      { version: 1, schemas: { s: { fields: { a: { int: { min: 2 ** 60, max: -(2 ** 60) } } }, merge: "" } } },
      { version: 1, schemas: { s: { fields: { a: { int: { min: 1.5, max: Number.NaN } } }, merge: [] } } },
      { version: 1, readers: { groups: [], unknown: [] } },
      { version: 1, readers: { groups: "", unknown: { length: 0 } } },
      { version: 1, readers: { unknown: { length: Object.create(null) } } },
      { version: 1, tools: { a: { untrusted_fields: [""], once: [], effects: [[]] } } },
      { version: 1, tools: { a: { output: "" } } },
      { version: 1, tools: { a: { output: { readers: "all", trust: "trusted", x: 1 } } } },
      { version: 1, tools: { a: { recipients: [{ arg: "" }, ""] } } },
      // deno-lint-ignore no-sparse-arrays
      { version: 1, tools: { a: { effects: [, "a"] } } },
      [],
      "policy",
      null,
      undefined,
    ]
  ) {
    assertSame(raw);
  }
});
