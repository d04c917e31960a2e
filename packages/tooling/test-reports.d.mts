// What the vitest configs (TypeScript) use; the rest of the module is read by scripts/test-summary.mjs.
export function vitestReporters(dir: string): (string | [string, Record<string, unknown>])[];
