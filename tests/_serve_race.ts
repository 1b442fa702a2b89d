// Race proposals of the `once` tool publish_release against one or more pab
// serve processes that share a store: one session, `count` proposals in
// flight at once, spread round-robin over the servers.
import { call } from "./_serve_fixtures.ts";

export async function raceOnce(
  urls: readonly string[],
  count: number,
  init: RequestInit = {},
): Promise<{ statuses: Record<string, number>; errors: number; messages: string[] }> {
  const created = await call(urls[0], "/v1/sessions", {}, init);
  const id = String(created.json.session);
  const results = await Promise.all(
    Array.from(
      { length: count },
      (_, i) =>
        call(urls[i % urls.length], `/v1/sessions/${id}/propose`, { tool: "publish_release", args: { n: i } }, init),
    ),
  );
  const statuses: Record<string, number> = {};
  let errors = 0;
  const messages = new Set<string>();
  for (const result of results) {
    if (result.status !== 200) {
      errors++;
      messages.add(JSON.stringify(result.json));
    } else statuses[String(result.json.status)] = (statuses[String(result.json.status)] ?? 0) + 1;
  }
  return { statuses, errors, messages: [...messages].slice(0, 5) };
}
