// The scratch copy's install: the checkout's node_modules copied when it is the lock's, and the
// runtime matrix's install linked.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installedFromLock, installIn, shareRuntimes } from './lib/scratch-copy.mjs';

const RUNTIMES = join('apps', 'runtime-matrix', 'runtimes');
let dir: string;
let [from, to] = ['', ''];

/** A checkout whose runtimes folder holds `lock`, installed (stamped with `stamp`'s digest) when `stamp` is given. */
function checkout(root: string, lock: string, stamp?: string) {
  mkdirSync(join(root, RUNTIMES), { recursive: true });
  writeFileSync(join(root, RUNTIMES, 'package-lock.json'), lock);
  if (stamp === undefined) return;
  mkdirSync(join(root, RUNTIMES, 'node_modules'));
  const digest = createHash('sha256').update(stamp).digest('hex');
  writeFileSync(join(root, RUNTIMES, 'node_modules', '.installed-lock-sha256'), digest);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scratch-copy-'));
  [from, to] = [join(dir, 'from'), join(dir, 'to')];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('shareRuntimes', () => {
  it('links the copy to an install made from the same lock', () => {
    checkout(from, '{"lock":1}', '{"lock":1}');
    checkout(to, '{"lock":1}');
    expect(shareRuntimes(from, to)).toBe(true);
    const link = join(to, RUNTIMES, 'node_modules');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(join(from, RUNTIMES, 'node_modules'));
  });

  it('keeps the link out of what git lists in a copy that is a repository', () => {
    checkout(from, '{"lock":1}', '{"lock":1}');
    checkout(to, '{"lock":1}');
    execFileSync('git', ['init', '-q'], { cwd: to });
    expect(shareRuntimes(from, to)).toBe(true);
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
      cwd: to,
      encoding: 'utf8',
    });
    expect(status).not.toContain('node_modules');
    expect(status).toContain('package-lock.json');
  });

  it('leaves the copy to install its own when the lock differs, nothing is installed, or it has its own', () => {
    checkout(from, '{"lock":2}', '{"lock":2}');
    checkout(to, '{"lock":1}');
    expect(shareRuntimes(from, to)).toBe(false);
    expect(() => lstatSync(join(to, RUNTIMES, 'node_modules'))).toThrow(/ENOENT/);

    checkout(join(dir, 'bare'), '{"lock":1}');
    expect(shareRuntimes(join(dir, 'bare'), to)).toBe(false);

    checkout(join(dir, 'own'), '{"lock":2}', '{"lock":2}');
    expect(shareRuntimes(from, join(dir, 'own'))).toBe(false);
    expect(lstatSync(join(dir, 'own', RUNTIMES, 'node_modules')).isSymbolicLink()).toBe(false);
  });
});

/** A workspace root with one workspace (`ws`), installed by npm: its link, its lock, npm's record. */
function installedWorkspace(root: string) {
  mkdirSync(join(root, 'ws'), { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'root', private: true, workspaces: ['ws'] }));
  writeFileSync(join(root, 'ws', 'package.json'), JSON.stringify({ name: 'ws', version: '1.0.0' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root });
}

describe('installIn', () => {
  it('copies the node_modules of a checkout installed from the same lock, its workspace links the copy’s own', () => {
    installedWorkspace(from);
    mkdirSync(join(from, 'node_modules', '.vite'));
    cpSync(from, to, { recursive: true, filter: (path) => !path.includes('node_modules') });

    expect(installIn(to, from)).toMatch(/^copied /);
    expect(realpathSync(join(to, 'node_modules', 'ws'))).toBe(realpathSync(join(to, 'ws')));
    expect(existsSync(join(to, 'node_modules', '.package-lock.json'))).toBe(true);
    expect(existsSync(join(to, 'node_modules', '.vite'))).toBe(false);
  });

  it('runs npm ci when a workspace is linked by an absolute path, which the copy would share', () => {
    installedWorkspace(from);
    rmSync(join(from, 'node_modules', 'ws'));
    symlinkSync(join(from, 'ws'), join(from, 'node_modules', 'ws'));
    cpSync(from, to, { recursive: true, filter: (path) => !path.includes('node_modules') });

    expect(installIn(to, from)).toBe('npm ci');
    expect(realpathSync(join(to, 'node_modules', 'ws'))).toBe(realpathSync(join(to, 'ws')));
  });

  it('takes an install for the lock’s only when npm’s record has every package as the lock has it', () => {
    installedWorkspace(from);
    const lock = JSON.parse(readFileSync(join(from, 'package-lock.json'), 'utf8'));
    expect(installedFromLock(from, JSON.stringify(lock))).toBe(true);
    // An optional package left out (another platform's build) is what npm ci leaves out too.
    const withOptional = {
      ...lock,
      packages: { ...lock.packages, 'node_modules/x': { version: '1.0.0', optional: true } },
    };
    expect(installedFromLock(from, JSON.stringify(withOptional))).toBe(true);
    const withMissing = { ...lock, packages: { ...lock.packages, 'node_modules/x': { version: '1.0.0' } } };
    expect(installedFromLock(from, JSON.stringify(withMissing))).toBe(false);
    const moved = { ...lock, packages: { ...lock.packages, ws: { ...lock.packages.ws, version: '2.0.0' } } };
    expect(installedFromLock(from, JSON.stringify(moved))).toBe(false);
    expect(installedFromLock(join(dir, 'nothing-installed'), JSON.stringify(lock))).toBe(false);
  });
});
