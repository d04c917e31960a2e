// `npm run contract -- <arguments>`: the arguments reach the contract runner, and turbo accepts
// the command line (it refused `--allow-skips` as an argument of its own).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractTurboArguments } from './lib/contract-command.mjs';

const ROOT = join(import.meta.dirname, '..');
const TURBO = join(ROOT, 'node_modules', '.bin', 'turbo');

/** The contract tasks turbo would run for `argv`, with the arguments each would get (a dry run). */
function planned(argv: string[]) {
  const run = spawnSync(TURBO, contractTurboArguments(argv, ['--dry-run=json']), {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });
  expect(run.status, run.stderr).toBe(0);
  const { tasks } = JSON.parse(run.stdout) as { tasks: { taskId: string; command: string; cliArguments: string[] }[] };
  return tasks.filter((task) => task.command !== '<NONEXISTENT>' && task.taskId.endsWith('#contract'));
}

describe('npm run contract -- <arguments>', () => {
  it('hands the arguments to the contract runner, not to turbo', () => {
    const [task, ...others] = planned(['--allow-skips', '--target', 'sandbox']);
    expect(others).toEqual([]);
    expect(task).toMatchObject({
      taskId: '@browser-cloud/contract-tests#contract',
      command: 'node scripts/run-contract.mjs',
      cliArguments: ['--allow-skips', '--target', 'sandbox'],
    });
  });

  it('takes the older form with a second `--` the same way, and no arguments as none', () => {
    expect(planned(['--', '--allow-skips'])[0]?.cliArguments).toEqual(['--allow-skips']);
    expect(planned([])[0]?.cliArguments).toEqual([]);
    expect(contractTurboArguments([])).toEqual(['run', 'contract']);
  });

  it('is what the root script runs', () => {
    const script = spawnSync('npm', ['pkg', 'get', 'scripts.contract'], { cwd: ROOT, encoding: 'utf8' }).stdout;
    expect(JSON.parse(script)).toMatch(/ node scripts\/contract\.mjs$/);
  });
});
