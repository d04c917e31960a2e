import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/**
 * A tool's hints as a host reads them: those it lists, and MCP's default for each it leaves out
 * (the generator lists only the hints that differ from them). A read-only tool changes nothing,
 * so it destroys nothing and is idempotent: MCP gives those two hints meaning only for a tool
 * that writes.
 */
export function effectiveHints(annotations: ToolAnnotations | undefined) {
  const {
    readOnlyHint = false,
    destructiveHint = true,
    idempotentHint = false,
    openWorldHint = true,
  } = annotations ?? {};
  return readOnlyHint
    ? { readOnlyHint, destructiveHint: false, idempotentHint: true, openWorldHint }
    : { readOnlyHint, destructiveHint, idempotentHint, openWorldHint };
}
