import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCErrorResponse } from '@modelcontextprotocol/sdk/types.js';
import { guardStdin } from './stdin-guard.js';

/**
 * The SDK's stdio transport, reading stdin through {@link guardStdin} (every line gets an
 * answer), with two more fixes:
 * - the end of stdin closes it, which ends the calls in flight: the SDK's own ignores that end,
 *   so a followed tail kept the process alive for all of its `wait_ms` after the host had gone;
 * - an error goes out with its own message: McpError's message starts `MCP error <code>: `, the
 *   SDK sends it so, and the host's SDK adds the prefix again.
 */
export function stdioTransport(
  input: Readable = process.stdin,
  output: Writable = process.stdout,
  log: Writable = process.stderr,
): StdioServerTransport {
  const lines = guardStdin(input, output, log);
  const transport = new StdioServerTransport(lines, output);
  const send = transport.send.bind(transport);
  transport.send = (message) => {
    if (!isJSONRPCErrorResponse(message)) return send(message);
    const prefix = `MCP error ${message.error.code}: `;
    const text = message.error.message;
    return send({
      ...message,
      error: { ...message.error, message: text.startsWith(prefix) ? text.slice(prefix.length) : text },
    });
  };
  lines.on('end', () => void transport.close());
  return transport;
}
