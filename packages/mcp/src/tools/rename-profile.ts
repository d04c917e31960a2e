import type { RenameProfileRequest } from '@browser-cloud/client';
import { TOOL_DEFINITIONS } from '../generated/tool-definitions.js';
import type { McpTool } from './mcp-tool.js';

export const renameProfile: McpTool = {
  definition: TOOL_DEFINITIONS.rename_profile,
  annotations: {
    title: TOOL_DEFINITIONS.rename_profile.title,
    readOnlyHint: false,
    // The old name is replaced, and a session that references the profile by that name may no
    // longer save its changes (the operation's description says so).
    destructiveHint: true,
    // Renamed by name, a second identical call no longer finds the profile (404): not idempotent.
    idempotentHint: false,
    openWorldHint: true,
  },
  conflictHint: 'Another profile of the project already has this name: choose another name.',
  async call(client, args, signal) {
    const idOrName = args.path['id_or_name'] as string;
    return { ...(await client.profiles.rename(idOrName, args.body as RenameProfileRequest, { signal })) };
  },
};
