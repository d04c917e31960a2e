import type { OpenApiDocument } from '@browser-cloud/openapi-document';

export function banner(generator: string): string;
export function jsonLiteral(value: unknown): string;
export function operationSchemas(document: OpenApiDocument): Record<string, unknown>[];
export function queryUnion(name: string, schema: unknown): Record<string, unknown> | undefined;
export function generateArtifacts(documentPath?: string): Promise<Array<{ path: string; contents: string }>>;
