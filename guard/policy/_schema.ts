// Private: the schema of policy files (guard/policy/_shape.ts checks it). Never re-exported.
import {
  array,
  boolean,
  type Infer,
  int,
  nonEmpty,
  nullValue,
  oneOf,
  optional,
  record,
  strictObject,
  string,
  union,
  unknown,
} from "./_shape.ts";

const name = nonEmpty(string);
const names = nonEmpty(array(name));
const trust = oneOf(["suspicious", "attested", "trusted"]);
const readers = union([oneOf(["all"]), array(name)]);
const labelObject = strictObject({ readers, trust });
const labelRef = union([name, labelObject]);
const onTainted = oneOf(["allow", "confirm", "block", "pinned", "named"]);
const embedded = oneOf(["trusted", "attested", "off"]);

const argRule = strictObject({
  require: optional(oneOf(["trusted", "attested"])),
  allow: optional(array(string)),
  embedded: optional(embedded),
  on_violation: optional(oneOf(["block", "confirm"])),
});

const output = union([oneOf(["unlabelled"]), name, labelObject, strictObject({ catalogue: name })]);

const recipient = union([name, strictObject({ arg: name })]);

const tool = strictObject({
  output: optional(output),
  outward: optional(boolean),
  untrusted_fields: optional(names),
  trusted_fields: optional(names),
  on_tainted: optional(onTainted),
  args: optional(record(argRule)),
  recipients: optional(array(recipient)),
  min_trust: optional(trust),
  effects: optional(array(name)),
  requires_prior: optional(array(name)),
  requires_no_prior: optional(array(name)),
  once: optional(name),
  needs_approval: optional(boolean),
  prerequisite: optional(strictObject({ args: record(unknown) })),
});

const field = union([
  oneOf(["bool"]),
  strictObject({ bool: oneOf([true]) }),
  strictObject({ int: strictObject({ min: int, max: int }) }),
  strictObject({ enum: nonEmpty(array(string)) }),
]);

export const policySchema = strictObject({
  version: oneOf([1]),
  default: optional(strictObject({
    on_tainted: optional(onTainted),
    outward_embedded: optional(embedded),
    confirm_untrusted_from: optional(oneOf(["designated", "named", "any"])),
  })),
  readers: optional(strictObject({
    groups: optional(names),
    directory: optional(record(name)),
    unknown: optional(name),
  })),
  labels: optional(record(labelObject)),
  catalogues: optional(record(strictObject({ key: name, entries: record(labelRef) }))),
  approvers: optional(record(strictObject({ mandate: names }))),
  schemas: optional(record(strictObject({ fields: record(field), merge: labelRef, tools: optional(array(name)) }))),
  casts: optional(record(strictObject({ cast: name, ceiling: labelRef }))),
  tools: optional(record(union([tool, nullValue]))),
});

export type RawPolicy = Infer<typeof policySchema>;
export type RawTool = Infer<typeof tool>;
export type RawLabelRef = Infer<typeof labelRef>;
export type RawField = Infer<typeof field>;

export const KNOWN_KEYS: readonly string[] = [
  "version",
  "default",
  "on_tainted",
  "outward_embedded",
  "confirm_untrusted_from",
  "outward",
  "untrusted_fields",
  "trusted_fields",
  "pinned",
  "named",
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
