import type { OpenApiDocument } from '@browser-cloud/openapi-document';
import type { CommandDefinition, CommandOption } from '../src/command-definition.js';

export function commandDefinitions(document: OpenApiDocument): CommandDefinition[];
export function generateArtifacts(documentPath?: string): Promise<Array<{ path: string; contents: string }>>;
export function commandWords(
  command: Pick<CommandDefinition, 'arguments' | 'options'>,
  valueFor: (input: CommandDefinition['arguments'][number] | CommandOption) => unknown,
): string[];
