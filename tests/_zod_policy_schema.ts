// The policy schema as zod/mini wrote it before guard/policy/_shape.ts replaced zod in the guard: the reference that
// tests/policy_shape_properties_test.ts checks the hand-written shapes against.
import * as z from "zod/mini";

const name = z.string().check(z.minLength(1));
const trust = z.enum(["suspicious", "attested", "trusted"]);
const readers = z.union([z.literal("all"), z.array(name)]);
const labelObject = z.strictObject({ readers, trust });
const labelRef = z.union([name, labelObject]);
const onTainted = z.enum(["allow", "confirm", "block", "pinned", "named"]);

const argRule = z.strictObject({
  require: z.optional(z.enum(["trusted", "attested"])),
  allow: z.optional(z.array(z.string())),
  embedded: z.optional(z.enum(["trusted", "attested", "off"])),
  on_violation: z.optional(z.enum(["block", "confirm"])),
});

const output = z.union([
  z.literal("unlabelled"),
  name,
  labelObject,
  z.strictObject({ catalogue: name }),
]);

const recipient = z.union([name, z.strictObject({ arg: name })]);

const tool = z.strictObject({
  output: z.optional(output),
  outward: z.optional(z.boolean()),
  untrusted_fields: z.optional(z.array(name).check(z.minLength(1))),
  trusted_fields: z.optional(z.array(name).check(z.minLength(1))),
  on_tainted: z.optional(onTainted),
  args: z.optional(z.record(z.string(), argRule)),
  recipients: z.optional(z.array(recipient)),
  min_trust: z.optional(trust),
  effects: z.optional(z.array(name)),
  requires_prior: z.optional(z.array(name)),
  requires_no_prior: z.optional(z.array(name)),
  once: z.optional(name),
  needs_approval: z.optional(z.boolean()),
  prerequisite: z.optional(z.strictObject({ args: z.record(z.string(), z.unknown()) })),
});

const field = z.union([
  z.literal("bool"),
  z.strictObject({ bool: z.literal(true) }),
  z.strictObject({ int: z.strictObject({ min: z.int(), max: z.int() }) }),
  z.strictObject({ enum: z.array(z.string()).check(z.minLength(1)) }),
]);

export const policySchema = z.strictObject({
  version: z.literal(1),
  default: z.optional(z.strictObject({
    on_tainted: z.optional(onTainted),
    outward_embedded: z.optional(z.enum(["trusted", "attested", "off"])),
    confirm_untrusted_from: z.optional(z.enum(["designated", "named", "any"])),
  })),
  readers: z.optional(z.strictObject({
    groups: z.optional(z.array(name).check(z.minLength(1))),
    directory: z.optional(z.record(z.string(), name)),
    unknown: z.optional(name),
  })),
  labels: z.optional(z.record(z.string(), labelObject)),
  catalogues: z.optional(z.record(
    z.string(),
    z.strictObject({ key: name, entries: z.record(z.string(), labelRef) }),
  )),
  approvers: z.optional(z.record(z.string(), z.strictObject({ mandate: z.array(name).check(z.minLength(1)) }))),
  schemas: z.optional(z.record(
    z.string(),
    z.strictObject({
      fields: z.record(z.string(), field),
      merge: labelRef,
      tools: z.optional(z.array(name)),
    }),
  )),
  casts: z.optional(z.record(z.string(), z.strictObject({ cast: name, ceiling: labelRef }))),
  tools: z.optional(z.record(z.string(), z.union([tool, z.null()]))),
});
