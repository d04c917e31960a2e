import type { OpenApiDocument } from '@browser-cloud/openapi-document';
import type { CommandDefinition } from '../src/command-definition.js';

export function commandDefinitions(document: OpenApiDocument): CommandDefinition[];
export function generateArtifacts(documentPath?: string): Promise<Array<{ path: string; contents: string }>>;
