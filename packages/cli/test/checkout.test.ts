import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The README's way to run the CLI from a checkout, after `npm ci && npm run build`.
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const run = promisify(execFile);

describe('from a checkout', () => {
  it('npm run -s cli -- <args> at the root is the CLI, with nothing of npm on stdout', async () => {
    expect((await run('npm', ['run', '-s', 'cli', '--', '--version'], { cwd: ROOT })).stdout).toBe(`${version}\n`);
    const help = await run('npm', ['run', '-s', 'cli', '--', 'logs', 'tail', '--help'], { cwd: ROOT });
    expect(help.stdout).toMatch(/^Usage: browser-cloud logs tail/);
  });
});
