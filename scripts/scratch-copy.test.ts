// The scratch copy's use of the runtime matrix's install at the checkout it was copied from.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shareRuntimes } from './lib/scratch-copy.mjs';

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
