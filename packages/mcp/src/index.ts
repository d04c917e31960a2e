/** An MCP server for the Browser Cloud API: a tool per operation of the OpenAPI document, generated from it. */
export { createMcpServer, type McpServerOptions } from './server.js';
export { stdioTransport } from './stdio-transport.js';
export { TOOL_DEFINITIONS } from './generated/tool-definitions.js';
export type { ToolDefinition, ArgumentLocation, JsonSchema } from './tool-definition.js';
export type { ToolsMode } from './tool-selection.js';
export type { TailedEvent, TailResult, TailStop } from './tools/log-tail.js';
