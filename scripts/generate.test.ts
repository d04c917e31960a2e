// scripts/generate.mjs owns the folder of each generator: it deletes what the generator no longer
// writes, its drift check fails on such a file, and it refuses a generator writing outside it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const GENERATE = fileURLToPath(new URL('./generate.mjs', import.meta.url));
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A generator module writing `files` (relative to its output folder, or absolute) into a folder of its own. */
function generator(files: Record<string, string>) {
  const folder = mkdtempSync(join(tmpdir(), 'generate-'));
  folders.push(folder);
  const out = join(folder, 'generated');
  mkdirSync(out);
  const artifacts = Object.entries(files).map(([name, contents]) => ({
    path: name.startsWith('/') ? name : join(out, name),
    contents,
  }));
  const module = join(folder, 'artifacts.mjs');
  writeFileSync(
    module,
    `export const OUTPUT_DIR = ${JSON.stringify(out)};\nexport async function generateArtifacts() { return ${JSON.stringify(artifacts)}; }\n`,
  );
  const run = (...args: string[]) => {
    try {
      return {
        code: 0,
        output: execFileSync('node', [GENERATE, '--artifacts', module, ...args], { encoding: 'utf8', stdio: 'pipe' }),
      };
    } catch (error) {
      const { status, stdout, stderr } = error as { status: number; stdout: string; stderr: string };
      return { code: status, output: stdout + stderr };
    }
  };
  return { out, folder, run };
}

describe('scripts/generate.mjs', () => {
  it('deletes a file of its folder it no longer writes, and its emptied folders; the check fails on one first', () => {
    const { out, run } = generator({ 'kept.ts': 'kept\n' });
    mkdirSync(join(out, 'resources'));
    writeFileSync(join(out, 'resources', 'renamed-operation.ts'), 'stale\n');
    writeFileSync(join(out, 'kept.ts'), 'kept\n');
    const check = run('--check');
    expect(check.code).toBe(1);
    expect(check.output).toMatch(/resources[/\\]renamed-operation\.ts \(not generated any more\)/);
    expect(run().code).toBe(0);
    expect(existsSync(join(out, 'resources'))).toBe(false);
    expect(readFileSync(join(out, 'kept.ts'), 'utf8')).toBe('kept\n');
    expect(run('--check')).toMatchObject({ code: 0 });
  });

  it('refuses a generator that writes outside its folder, and writes nothing', () => {
    const { folder, run } = generator({ 'a.ts': 'a\n', '../outside.ts': 'x\n' });
    const result = run();
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/outside\.ts, outside its folder/);
    expect(existsSync(join(folder, 'outside.ts'))).toBe(false);
    expect(existsSync(join(folder, 'generated', 'a.ts'))).toBe(false);
  });
});
