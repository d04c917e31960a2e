import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The repository's pretest script; the install branch (apt-get as root) is exercised by hand, as
// it changes the machine.
const script = fileURLToPath(new URL('../../../scripts/ensure-chromium.mjs', import.meta.url));

function run(chromiumPath: string): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, [script], {
    env: { ...process.env, CHROMIUM_PATH: chromiumPath },
    encoding: 'utf8',
  });
  return { status: result.status, stderr: result.stderr };
}

describe('scripts/ensure-chromium.mjs', () => {
  it('accepts an executable CHROMIUM_PATH without installing anything', () => {
    expect(run(process.execPath)).toEqual({ status: 0, stderr: '' });
  });

  it('fails with install instructions when CHROMIUM_PATH is wrong, instead of installing another browser', () => {
    const { status, stderr } = run('/nonexistent/chromium');
    expect(status).toBe(1);
    expect(stderr).toContain('CHROMIUM_PATH=/nonexistent/chromium is not an executable file');
    expect(stderr).toContain('apt-get install -y --no-install-recommends chromium');
  });
});
