// Private: the zod schema of policy files. Never re-exported; zod types stay out of pab's API.
import * as z from "zod";

const name = z.string().min(1);
const trust = z.enum(["suspicious", "attested", "trusted"]);
const readers = z.union([z.literal("all"), z.array(name)]);
const labelObject = z.strictObject({ readers, trust });
const labelRef = z.union([name, labelObject]);
const onTainted = z.enum(["allow", "confirm", "block"]);

const argRule = z.strictObject({
  require: z.enum(["trusted", "attested"]).optional(),
  allow: z.array(z.union([z.string(), z.number(), z.boolean()])).optional(),
  on_violation: z.enum(["block", "confirm"]).optional(),
});

const output = z.union([
  z.literal("unlabelled"),
  name,
  labelObject,
  z.strictObject({ catalogue: name }),
]);

const recipient = z.union([name, z.strictObject({ arg: name })]);

const tool = z.strictObject({
  output: output.optional(),
  untrusted_fields: z.array(name).min(1).optional(),
  on_tainted: onTainted.optional(),
  args: z.record(z.string(), argRule).optional(),
  recipients: z.array(recipient).optional(),
  min_trust: trust.optional(),
  effects: z.array(name).optional(),
  requires_prior: z.array(name).optional(),
  requires_no_prior: z.array(name).optional(),
  once: name.optional(),
  needs_approval: z.boolean().optional(),
  prerequisite: z.strictObject({ args: z.record(z.string(), z.unknown()) }).optional(),
});

const field = z.union([
  z.literal("bool"),
  z.strictObject({ bool: z.literal(true) }),
  z.strictObject({ int: z.strictObject({ min: z.number().int(), max: z.number().int() }) }),
  z.strictObject({ enum: z.array(z.string()).min(1) }),
]);

export const policySchema = z.strictObject({
  version: z.literal(1),
  default: z.strictObject({ on_tainted: onTainted.optional() }).optional(),
  readers: z.strictObject({
    groups: z.array(name).min(1).optional(),
    directory: z.record(z.string(), name).optional(),
    unknown: name.optional(),
  }).optional(),
  labels: z.record(z.string(), labelObject).optional(),
  catalogues: z.record(
    z.string(),
    z.strictObject({ key: name, entries: z.record(z.string(), labelRef) }),
  ).optional(),
  approvers: z.record(z.string(), z.strictObject({ mandate: z.array(name).min(1) })).optional(),
  schemas: z.record(
    z.string(),
    z.strictObject({
      fields: z.record(z.string(), field),
      merge: labelRef,
      tools: z.array(name).optional(),
    }),
  ).optional(),
  casts: z.record(z.string(), z.strictObject({ cast: name, ceiling: labelRef })).optional(),
  tools: z.record(z.string(), z.union([tool, z.null()])).optional(),
});

export type RawPolicy = z.infer<typeof policySchema>;
export type RawTool = z.infer<typeof tool>;
export type RawLabelRef = z.infer<typeof labelRef>;
export type RawField = z.infer<typeof field>;

/** Every key the format knows, for "did you mean" hints. */
export const KNOWN_KEYS: readonly string[] = [
  "version",
  "default",
  "on_tainted",
  "readers",
  "groups",
  "directory",
  "unknown",
  "labels",
  "trust",
  "catalogues",
  "key",
  "entries",
  "approvers",
  "mandate",
  "schemas",
  "fields",
  "merge",
  "tools",
  "casts",
  "cast",
  "ceiling",
  "output",
  "args",
  "require",
  "allow",
  "on_violation",
  "recipients",
  "arg",
  "min_trust",
  "effects",
  "requires_prior",
  "requires_no_prior",
  "once",
  "needs_approval",
  "prerequisite",
  "catalogue",
  "bool",
  "int",
  "enum",
  "min",
  "max",
];
