import type { OpenApiDocument } from '@browser-cloud/openapi-document';

export function documentedPairs(document: OpenApiDocument): { operationId: string; status: string }[];
export function missingCoverage(
  document: OpenApiDocument,
  observed: { operationId: string; status: number }[],
): string[];
