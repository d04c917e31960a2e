// The ledger of what a run creates on its target (README, "Live safety"): each case file deletes
// what its cases created after them; the runner deletes what a run that stopped half-way (a crash,
// a kill) left, at the end of the run and at the start of the next one on the same reports folder.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

/** Notes that `removal` (`DELETE /profiles/prof_…`) deletes what the run created on `baseUrl`. */
export function noteCreated(file, baseUrl, removal) {
  appendFileSync(file, `${JSON.stringify({ at: baseUrl, created: removal })}\n`);
}

/** Notes that `removal` was sent and the resource is gone. */
export function noteDeleted(file, baseUrl, removal) {
  appendFileSync(file, `${JSON.stringify({ at: baseUrl, deleted: removal })}\n`);
}

/** What the ledger lists as created and not deleted, by target: `{ at, removal }` (a half-written last line is skipped). */
export function leftovers(file) {
  if (!existsSync(file)) return [];
  const left = new Map();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (entry.created) left.set(`${entry.at} ${entry.created}`, { at: entry.at, removal: entry.created });
    if (entry.deleted) left.delete(`${entry.at} ${entry.deleted}`);
  }
  return [...left.values()];
}

/**
 * Sends each leftover's `removal` (`DELETE /profiles/prof_…`) to `baseUrl` with `token`, noting
 * what is gone (a 2xx, or a 404: deleted already); returns a problem for each one still there.
 */
export async function deleteLeftovers(file, entries, { baseUrl, token }) {
  const problems = [];
  for (const { removal } of entries.filter((e) => e.at === baseUrl)) {
    const [method, path] = removal.split(' ');
    const answer = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    }).catch((error) => error);
    await answer.body?.cancel();
    if (answer instanceof Error || (answer.status >= 300 && answer.status !== 404))
      problems.push(`${removal}: ${answer instanceof Error ? answer.message : `answered ${answer.status}`}`);
    else noteDeleted(file, baseUrl, removal);
  }
  return problems;
}
