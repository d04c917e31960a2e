import type { LoginRequest } from '@browser-cloud/client';
import { TOOL_DEFINITIONS } from '../generated/tool-definitions.js';
import type { McpTool } from './mcp-tool.js';

export const loginAuthConnection: McpTool = {
  definition: TOOL_DEFINITIONS.login_auth_connection,
  annotations: {
    title: TOOL_DEFINITIONS.login_auth_connection.title,
    readOnlyHint: false,
    // Starts a flow; nothing is overwritten or deleted.
    destructiveHint: false,
    // A second call while the flow is in progress meets 409.
    idempotentHint: false,
    openWorldHint: true,
  },
  conflictHint:
    'A login flow is already in progress for this connection, so none was started. Do not call login_auth_connection ' +
    'again now: let the user finish the flow at the hosted URL of the earlier login, or wait until that flow expires.',
  async call(client, args, signal) {
    const body = Object.keys(args.body).length > 0 ? (args.body as LoginRequest) : undefined;
    return { ...(await client.auth.connections.login(args.path['id'] as string, body, { signal })) };
  },
};
