import type { OperationCall } from '@browser-cloud/client';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/** A JSON Schema, as the document writes it. */
export type JsonSchema = { [keyword: string]: unknown };

/** Where an argument of a tool goes: into the operation's path, query, headers or body, or to the tool itself. */
export type ArgumentLocation = 'path' | 'query' | 'header' | 'body' | 'tool';

/** A tool as `scripts/tool-definitions.mjs` generates it from the operation it calls. */
export interface ToolDefinition {
  readonly name: string;
  readonly operationId: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: { type: 'object'; properties: Record<string, JsonSchema>; required?: string[] } & JsonSchema;
  readonly outputSchema: { type: 'object' } & JsonSchema;
  /**
   * What the tool returns: the answer (`object`), the answer as `{ result }` (`value`), `{}` for an
   * answer without a body (`none`), or a page of the event stream (`log-events`: the log tail).
   */
  readonly answer: 'object' | 'value' | 'none' | 'log-events';
  /** The hints that differ from MCP's defaults; none when every one is its default. */
  readonly annotations?: ToolAnnotations;
  /** What a model should know of a 409 (the document's description of it); empty without one. */
  readonly conflictHint: string;
  /** How the operation's client method is called. */
  readonly call: OperationCall;
  readonly locations: Readonly<Record<string, ArgumentLocation>>;
}
