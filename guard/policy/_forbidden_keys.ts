// Private: keys a policy may never use, found anywhere in a parsed policy object.
import type { PolicyIssue } from "./policy_error.ts";

const FORBIDDEN = new Set(["__proto__", "constructor", "prototype"]);

/** Every `__proto__`, `constructor` or `prototype` key in a parsed value, iteratively (no recursion limit). */
export function forbiddenKeys(raw: unknown): PolicyIssue[] {
  const issues: PolicyIssue[] = [];
  const stack: Array<{ value: unknown; path: string }> = [{ value: raw, path: "" }];
  const seen = new Set<object>();
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    for (const key of Object.keys(value)) {
      const at = path ? `${path}.${key}` : key;
      if (FORBIDDEN.has(key)) {
        issues.push({
          path: at,
          message: `the key "${key}" is not allowed`,
          hint: "rename it: __proto__, constructor and prototype could change how objects behave",
        });
        continue;
      }
      stack.push({ value: (value as Record<string, unknown>)[key], path: at });
    }
  }
  return issues.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
