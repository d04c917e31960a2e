// Runs the Redocly CLI of the repo, with the repo's redocly.yaml, over several files in one
// process (a start costs about a second) and returns its problems grouped by file.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
const REDOCLY = join(REPO_ROOT, 'node_modules/.bin/redocly');

export interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  pointer: string;
}

/** @param options another setup than the repository's: a working folder and a config in it (its ignore file beside it). */
export async function lintFiles(
  files: readonly string[],
  { cwd = REPO_ROOT, config = join(REPO_ROOT, 'redocly.yaml') }: { cwd?: string; config?: string } = {},
): Promise<Map<string, Problem[]>> {
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)(REDOCLY, ['lint', ...files, '--config', config, '--format=json'], {
      cwd,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
      maxBuffer: 64 * 1024 * 1024,
    }));
  } catch (error) {
    // Redocly exits 1 when it finds errors; its report is still on stdout.
    stdout = (error as { stdout?: string }).stdout ?? '';
    if (!stdout.trim().startsWith('{')) throw error;
  }
  // One JSON report per file, printed back to back in the order of the files.
  const reports = JSON.parse(`[${stdout.replace(/\}\s*\{(?=\s*"totals")/g, '},{')}]`) as {
    problems: { ruleId: string; severity: 'error' | 'warn'; message: string; location: { pointer: string }[] }[];
  }[];
  if (reports.length !== files.length) throw new Error(`expected ${files.length} reports, got ${reports.length}`);
  const byFile = new Map<string, Problem[]>();
  reports.forEach((report, i) => {
    byFile.set(
      resolve(cwd, files[i]!),
      report.problems.map((p) => ({
        ruleId: p.ruleId,
        severity: p.severity,
        message: p.message,
        pointer: p.location[0]?.pointer ?? '',
      })),
    );
  });
  return byFile;
}

/** Writes each document as YAML into a fresh temporary folder and returns the paths. */
export function writeDocuments(documents: Record<string, unknown>): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  return Object.fromEntries(
    Object.entries(documents).map(([name, document]) => {
      const path = join(dir, `${name}.yaml`);
      writeFileSync(path, stringify(document));
      return [name, path];
    }),
  );
}
