import {
  APIError,
  AuthenticationError,
  BrowserCloudError,
  ConflictError,
  TOKEN_ENV,
  ValidationError,
} from '@browser-cloud/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from './tool-definition.js';

/** A tool's answer: the same object as text (for models that read text) and as structured content. */
export function toolResult(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/**
 * A failure as a tool error the model can act on, not a protocol error: the API's status, code and
 * message, what was wrong with the arguments, or that the service could not be reached. The
 * client's errors never hold the token; anything else is reported by class only, since its
 * message was not written with the token in mind.
 */
export function errorResult(error: unknown, tool: ToolDefinition): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: describeError(error, tool) }] };
}

function describeError(error: unknown, tool: ToolDefinition): string {
  if (error instanceof ValidationError) {
    return `Invalid arguments, nothing was sent: ${error.message}`;
  }
  if (error instanceof APIError) {
    const lines = [`The API answered ${error.message}`];
    if (error instanceof ConflictError && tool.conflictHint) lines.push(tool.conflictHint);
    // The model cannot fix this; the person who configured the server can.
    if (error instanceof AuthenticationError) {
      lines.push(`The API key was refused: check ${TOKEN_ENV} in the MCP server's configuration (its env).`);
    }
    if (error.requestId) lines.push(`Request ID: ${error.requestId}`);
    return lines.join('\n');
  }
  if (error instanceof BrowserCloudError) return `${error.name}: ${error.message}`;
  return `Unexpected failure of the MCP server (${error instanceof Error ? error.name : typeof error}).`;
}
