export const DEFAULT_SEED: number;
export function seedFromEnv(raw?: string | undefined, random?: () => number): number;
export function pinnedSeeds(file?: string): number[];
export function runSeeds(seed: number, pinned: number[]): number[];
