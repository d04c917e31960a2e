import type { OpenApiDocument } from '@browser-cloud/openapi-document';

export function generateClient(document: OpenApiDocument): Record<string, string>;
export function generateArtifacts(documentPath?: string): Promise<Array<{ path: string; contents: string }>>;
