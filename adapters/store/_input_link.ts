import type { AuditEvent } from "../audit/mod.ts";

/**
 * The audit events written with an input, the last one naming the input's
 * position (`input: seq`): every stored input names its audit record, so a
 * check can tell that none is missing.
 */
export function linkInput(audit: readonly AuditEvent[], seq: number): readonly AuditEvent[] {
  if (!audit.length) return audit;
  return [...audit.slice(0, -1), { ...audit[audit.length - 1], input: seq }];
}
