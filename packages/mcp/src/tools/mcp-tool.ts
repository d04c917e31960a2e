import type { BrowserCloudClient } from '@browser-cloud/client';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { SortedArguments } from '../tool-arguments.js';
import type { ToolDefinition } from '../tool-definition.js';

/** One tool of the server: its generated definition and how it calls the client. */
export interface McpTool {
  readonly definition: ToolDefinition;
  /** Set by hand: what the operation does to the world is a judgement, not a fact of the document. */
  readonly annotations: ToolAnnotations;
  /** What a model should do about a 409 of this operation. */
  readonly conflictHint: string;
  call(client: BrowserCloudClient, args: SortedArguments, signal: AbortSignal): Promise<Record<string, unknown>>;
}
