// `npm run test:busy`: a command beside two busy-loop processes per core, which end with it.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, 'test-busy.mjs');
// What the command sees: the loops' ids, and whether each runs.
const PROBE = `const pids = process.env.BUSY_LOOP_PIDS.split(',').map(Number);
const alive = pids.filter((pid) => { try { return process.kill(pid, 0); } catch { return false; } });
console.log(JSON.stringify({ pids, alive: alive.length }));
process.exit(Number(process.argv[1]));`;

function busy(exitCode: number) {
  const run = spawnSync(process.execPath, [SCRIPT, '--', process.execPath, '-e', PROBE, String(exitCode)], {
    encoding: 'utf8',
  });
  const probe = JSON.parse(/^\{.*\}$/m.exec(run.stdout)?.[0] ?? 'null') as { pids: number[]; alive: number } | null;
  return { run, probe };
}

const running = (pid: number) => {
  try {
    return process.kill(pid, 0);
  } catch {
    return false;
  }
};

describe('npm run test:busy', () => {
  it('runs the command beside two busy loops per core, and stops them when it ends', () => {
    const { run, probe } = busy(0);
    expect(run.status).toBe(0);
    expect(probe?.pids).toHaveLength(2 * availableParallelism());
    expect(probe?.alive).toBe(2 * availableParallelism());
    expect(probe?.pids.filter(running)).toEqual([]);
    expect(run.stdout).toMatch(/^test:busy: [\s\S]* passed in [\d.]+ min, beside \d+ busy loops/m);
  });

  it("exits with the command's code, the loops stopped all the same", () => {
    const { run, probe } = busy(3);
    expect(run.status).toBe(3);
    expect(probe?.pids.filter(running)).toEqual([]);
    expect(run.stdout).toContain('failed (exit 3)');
  });

  it('runs npm test by default', () => {
    const pkg = JSON.parse(
      spawnSync('npm', ['pkg', 'get', 'scripts.test:busy'], { cwd: join(import.meta.dirname, '..'), encoding: 'utf8' })
        .stdout,
    );
    expect(pkg).toBe('node scripts/test-busy.mjs');
  });
});
