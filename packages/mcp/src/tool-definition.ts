/** A JSON Schema, as the document writes it. */
export type JsonSchema = { [keyword: string]: unknown };

/** Where an argument of a tool goes: into the operation's path, query or body, or to the tool itself. */
export type ArgumentLocation = 'path' | 'query' | 'body' | 'tool';

/** A tool as `scripts/tool-definitions.mjs` generates it from the operation it calls. */
export interface ToolDefinition {
  readonly name: string;
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** The operation's summary. */
  readonly title: string;
  /** The operation's summary and description, and what the tool adds. */
  readonly description: string;
  readonly inputSchema: { type: 'object'; properties: Record<string, JsonSchema>; required: string[] } & JsonSchema;
  readonly outputSchema: { type: 'object' } & JsonSchema;
  /** Where each argument goes. */
  readonly locations: Readonly<Record<string, ArgumentLocation>>;
}
