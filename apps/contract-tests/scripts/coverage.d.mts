export function documentedPairs(document: unknown): { operationId: string; status: string }[];
export function missingCoverage(document: unknown, observed: { operationId: string; status: number }[]): string[];
