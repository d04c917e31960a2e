/**
 * An MCP server for the Browser Cloud API: a login flow, a profile rename and paged browser logs
 * as tools whose input schemas are generated from the OpenAPI document.
 */
export { createMcpServer, type McpServerOptions } from './server.js';
export { stdioTransport } from './stdio-transport.js';
export { TOOL_DEFINITIONS } from './generated/tool-definitions.js';
export type { ToolDefinition, ArgumentLocation, JsonSchema } from './tool-definition.js';
export type { TailedEvent, TailResult, TailStop } from './tools/tail-browser-logs.js';
