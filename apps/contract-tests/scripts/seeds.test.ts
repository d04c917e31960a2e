import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractSeeds, DEFAULT_SEED, pinnedSeeds, seedFromEnv } from './seeds.mjs';

function pinnedFile(content: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'seeds-')), 'pinned-seeds.json');
  writeFileSync(file, JSON.stringify(content));
  return file;
}

describe('seedFromEnv', () => {
  it('is the fixed default when CONTRACT_SEED is unset or empty, so that two runs agree', () => {
    expect(seedFromEnv(undefined, () => 0.5)).toBe(DEFAULT_SEED);
    expect(seedFromEnv('', () => 0.5)).toBe(DEFAULT_SEED);
  });

  it('draws a fresh seed for CONTRACT_SEED=random', () => {
    expect(seedFromEnv('random', () => 0.5)).toBe(2 ** 30);
    expect(seedFromEnv('random', () => 0.25)).toBe(2 ** 29);
  });

  it('takes an integer as given and refuses anything else, naming the variable', () => {
    expect(seedFromEnv('1234')).toBe(1234);
    expect(seedFromEnv('-7')).toBe(-7);
    expect(() => seedFromEnv('1.5')).toThrow(/CONTRACT_SEED must be an integer or "random", got "1.5"/);
    expect(() => seedFromEnv('fresh')).toThrow(/CONTRACT_SEED/);
  });
});

describe('pinned seeds', () => {
  it('the repository file is valid', () => {
    expect(Array.isArray(pinnedSeeds())).toBe(true);
  });

  it('reads each entry’s seed and refuses an entry without a reason', () => {
    expect(pinnedSeeds(pinnedFile({ seeds: [{ seed: 42, why: 'a 256-character name accepted' }] }))).toEqual([42]);
    expect(() => pinnedSeeds(pinnedFile({ seeds: [{ seed: 42 }] }))).toThrow(/seeds\[0\] must be/);
    expect(() => pinnedSeeds(pinnedFile({ seeds: [{ seed: '42', why: 'x' }] }))).toThrow(/seeds\[0\] must be/);
    expect(() => pinnedSeeds(pinnedFile({}))).toThrow(/"seeds" must be a list/);
  });

  it('runs the run’s own seed first, then each pinned seed once', () => {
    expect(contractSeeds({ CONTRACT_SEED: '1', CONTRACT_PINNED_SEEDS: '42,1,7,42' })).toEqual([1, 42, 7]);
    expect(contractSeeds({})).toEqual([DEFAULT_SEED]);
  });
});
