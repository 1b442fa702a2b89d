/**
 * Closing a child branch: its answer leaves only in the schema's exact shape.
 *
 * @module
 */
import { errorText, formatPartialLabel, knownLabel } from "../core/mod.ts";
import { type AnswerValue, attestAnswer } from "./answer_schema.ts";
import type { Branch } from "./branch.ts";
import type { Session } from "./session.ts";

/**
 * Close a child branch and merge its answer into the parent with the schema's
 * merge label, as a source that vouches only for complete field values.
 * Throws `SchemaError` (and still closes the branch, letting nothing out) when
 * the answer does not fit; `TypeError` for the main branch.
 */
export function mergeAnswer(session: Session, branch: Branch, answer: unknown): Readonly<Record<string, AnswerValue>> {
  branch.assertOpen();
  const parent = branch.parent;
  if (!parent) throw new TypeError("Cannot close the main branch: only child branches close");
  branch.close();
  const { name, spec } = parent.schema;
  let fields: Readonly<Record<string, AnswerValue>>;
  try {
    fields = attestAnswer(answer, spec);
  } catch (error) {
    session.ledger.record("merge", branch.name, { detail: { schema: name, rejected: errorText(error) } });
    throw error;
  }
  const label = knownLabel(spec.merge);
  parent.branch.addSource(`branch:${name}`, {
    trust: spec.merge.trust,
    label,
    fields: Object.values(fields).map(String),
  });
  session.ledger.record("merge", branch.name, {
    detail: { schema: name, fields, label: formatPartialLabel(parent.branch.label) },
  });
  return fields;
}
