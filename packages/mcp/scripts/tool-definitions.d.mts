import type { OpenApiDocument } from '@browser-cloud/openapi-document';
import type { ToolDefinition } from '../src/tool-definition.js';

export function toolDefinitions(document: OpenApiDocument): Record<string, ToolDefinition>;
export function hostRuleViolations(tool: { name: string; inputSchema: Record<string, unknown> }): string[];
export function compact(schema: unknown): unknown;
export function generateArtifacts(documentPath?: string): Promise<Array<{ path: string; contents: string }>>;
export const OUTPUT_DIR: string;
export const TAIL: { arguments: Record<string, Record<string, unknown>>; eventProperties: readonly string[] };
