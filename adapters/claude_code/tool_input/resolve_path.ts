/**
 * A file path as Claude Code's tool would open it, matched with the payload's
 * `cwd`: resolved against it and normalised (`.`, `..`, repeated slashes), then
 * written relative to `cwd` when it lies inside (as the user names files in
 * their project) and absolute otherwise. A path under `~` stays as written:
 * the hook does not know the user's home.
 *
 * @module
 */
import { posix } from "node:path";

/**
 * Resolve `path` against `cwd` (when `cwd` is an absolute path).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolvePath } from "./resolve_path.ts";
 * assert.equal(resolvePath("/work/project/src/../README.md", "/work/project"), "README.md");
 * assert.equal(resolvePath("../../etc/passwd", "/work/project"), "/etc/passwd");
 * assert.equal(resolvePath("~/.ssh/id_rsa", "/work/project"), "~/.ssh/id_rsa");
 * assert.equal(resolvePath("/work/project", "/work/project"), ".");
 * ```
 */
export function resolvePath(path: string, cwd: string | undefined): string {
  if (path.startsWith("~")) return posix.normalize(path);
  const base = cwd !== undefined && cwd.startsWith("/") ? posix.normalize(cwd) : undefined;
  if (base === undefined) return posix.normalize(path);
  const absolute = posix.resolve(base, path);
  const relative = posix.relative(base, absolute);
  if (relative === "") return ".";
  return relative.startsWith("..") || posix.isAbsolute(relative) ? absolute : relative;
}
