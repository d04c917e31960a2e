import { DEFAULT_SEED, runSeeds } from '../../scripts/seeds.mjs';

/**
 * The seeds the generated cases run with: the run's own (CONTRACT_SEED, set by
 * scripts/run-contract.mjs; the default seed when a file is run by hand), then the pinned ones
 * (CONTRACT_PINNED_SEEDS, which the script fills from pinned-seeds.json).
 */
export function contractSeeds(): number[] {
  const seed = Number(process.env['CONTRACT_SEED'] || DEFAULT_SEED);
  const pinned = (process.env['CONTRACT_PINNED_SEEDS'] ?? '')
    .split(',')
    .filter((text) => text !== '')
    .map(Number);
  return runSeeds(seed, pinned);
}
