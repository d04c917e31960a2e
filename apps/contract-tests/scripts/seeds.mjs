// The seeds of the generated cases (README, "Seeds"): fixed by default, so that a red run is red again.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The seed when CONTRACT_SEED is not set. */
export const DEFAULT_SEED = 1;

/** The run's seed from CONTRACT_SEED: unset → DEFAULT_SEED, `random` → a fresh one, else that integer. */
export function seedFromEnv(raw = process.env.CONTRACT_SEED, random = Math.random) {
  if (raw === undefined || raw === '') return DEFAULT_SEED;
  if (raw === 'random') return Math.floor(random() * 2 ** 31);
  if (!Number.isSafeInteger(Number(raw))) throw new Error(`CONTRACT_SEED must be an integer or "random", got "${raw}"`);
  return Number(raw);
}

/** How many generated cases per operation and kind, from CONTRACT_RUNS (default 20). */
export function runsFromEnv(raw = process.env.CONTRACT_RUNS || '20') {
  if (!Number.isInteger(Number(raw)) || Number(raw) < 1)
    throw new Error(`CONTRACT_RUNS must be a positive integer, got "${raw}"`);
  return Number(raw);
}

/** The pinned seeds of `file` (pinned-seeds.json): each `{ seed, why }` entry's integer seed. */
export function pinnedSeeds(file = fileURLToPath(new URL('../pinned-seeds.json', import.meta.url))) {
  const { seeds } = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(seeds)) throw new Error(`${file}: "seeds" must be a list`);
  return seeds.map((entry, index) => {
    if (!Number.isSafeInteger(entry?.seed) || typeof entry?.why !== 'string' || entry.why === '')
      throw new Error(`${file}: seeds[${index}] must be { "seed": <integer>, "why": "<what it found>" }`);
    return entry.seed;
  });
}

/** The seeds the cases run with: the run's own (CONTRACT_SEED), then each pinned one it does not repeat. */
export function contractSeeds(env = process.env) {
  const pinned = (env.CONTRACT_PINNED_SEEDS ?? '').split(',').filter(Boolean).map(Number);
  return [...new Set([Number(env.CONTRACT_SEED || DEFAULT_SEED), ...pinned])];
}
