import { Transform } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  ClientRequestSchema,
  ErrorCode,
  isJSONRPCErrorResponse,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * The longest JSON-RPC line (one message) the server reads: 4 MiB, far above any call of its
 * tools. The SDK's stdio transport stops reading for good at 10 MiB, silently.
 */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** How much of an oversized line is kept to find its `id`, so the caller waiting on it gets the error. */
const ID_SEARCH_BYTES = 4096;

/**
 * The SDK's stdio transport on the process's stdin and stdout, reading stdin through
 * {@link guardStdin}; the end of stdin closes it and ends the calls in flight (the SDK's own
 * ignores it: a followed tail outlived the host by its `wait_ms`); an error goes out without
 * McpError's `MCP error <code>: ` prefix, which the host's SDK adds again.
 */
export function stdioTransport(): StdioServerTransport {
  const lines = guardStdin(process.stdin, process.stdout, process.stderr);
  const transport = new StdioServerTransport(lines, process.stdout);
  const send = transport.send.bind(transport);
  transport.send = (message) => {
    if (!isJSONRPCErrorResponse(message)) return send(message);
    const text = message.error.message.replace(new RegExp(`^MCP error ${message.error.code}: `), '');
    return send({ ...message, error: { ...message.error, message: text } });
  };
  lines.on('end', () => void transport.close());
  return transport;
}

/** A JSON-RPC error answer's `id` and `error`. */
type Refusal = { id: string | number | null; code: ErrorCode; message: string };

/**
 * stdin as the SDK's transport should read it: whole lines, none empty or over `maxBytes`, each a
 * message the SDK takes. A line refused gets a JSON-RPC error on `output` and a line on `log`; an
 * oversized one is dropped as it arrives, never held whole.
 */
export function guardStdin(
  input: NodeJS.ReadableStream,
  output: { write(text: string): unknown },
  log: { write(text: string): unknown },
  maxBytes = MAX_MESSAGE_BYTES,
): Transform {
  const refuse = ({ id, code, message }: Refusal): void => {
    output.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
    log.write(`browser-cloud-mcp: ${message}; the server goes on.\n`);
  };
  let pending: Buffer[] = [];
  let bytes = 0;
  /** The start of the oversized line being dropped. */
  let dropping: Buffer | undefined;
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      for (let start = 0; start <= chunk.length; ) {
        const newline = chunk.indexOf(0x0a, start);
        const segment = chunk.subarray(start, newline === -1 ? chunk.length : newline);
        bytes += segment.length;
        if (dropping === undefined && bytes > maxBytes) {
          dropping = Buffer.concat([...pending, segment]).subarray(0, ID_SEARCH_BYTES);
          pending = [];
        } else if (dropping === undefined) {
          pending.push(segment);
        }
        if (newline === -1) break;
        const line = Buffer.concat(pending).toString('utf8');
        if (dropping !== undefined) {
          const message = `Message over ${maxBytes} bytes (${bytes} bytes): not read`;
          refuse({ id: requestId(dropping), code: ErrorCode.InvalidRequest, message });
        } else if (line.trim() !== '') {
          // (An empty line is no message: the SDK would take it for a broken one.)
          const refusal = screenLine(line);
          if (refusal) refuse(refusal);
          else this.push(`${line}\n`);
        }
        pending = [];
        bytes = 0;
        dropping = undefined;
        start = newline + 1;
      }
      done();
    },
  });
  return input.pipe(guard);
}

/** The `id` of a JSON-RPC request from the start of its line, when it is there; JSON-RPC says `null` otherwise. */
function requestId(head: Buffer): string | number | null {
  const match = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,256}")/.exec(head.toString('utf8'));
  try {
    const id: unknown = JSON.parse(match?.[1] ?? 'null');
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

/** The SDK's schema of each request a client may send, by method (`tools/call`: CallToolRequestSchema). */
const REQUEST_SCHEMAS = new Map<unknown, (typeof ClientRequestSchema.options)[number]>(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]),
);

/**
 * The JSON-RPC 2.0 answer to a line the SDK would drop without a word, or to a known request whose
 * params it would refuse as an internal error (-32603); undefined for a line the SDK takes.
 */
function screenLine(line: string): Refusal | undefined {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return { id: null, code: ErrorCode.ParseError, message: 'Parse error: the line is not JSON' };
  }
  const fields = (typeof message === 'object' && !Array.isArray(message) && message) || {};
  const { jsonrpc, id: givenId, method, params } = fields as Record<string, unknown>;
  const validId = typeof givenId === 'string' || Number.isSafeInteger(givenId);
  // The request's id, or null when there is no request to tell it from (JSON-RPC 2.0 § 5).
  const id = validId && typeof method === 'string' ? (givenId as string | number) : null;
  const refused = (code: ErrorCode, why: string): Refusal => ({ id, code, message: why });

  if (Array.isArray(message)) {
    return refused(
      ErrorCode.InvalidRequest,
      'Invalid request: batches are not supported (MCP 2025-06-18 dropped them)',
    );
  }
  if (JSONRPCMessageSchema.safeParse(message).success) {
    const schema = id === null ? undefined : REQUEST_SCHEMAS.get(method);
    const issues = schema?.safeParse(message).error?.issues ?? [];
    if (issues.length === 0) return undefined;
    const why = issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    return refused(ErrorCode.InvalidParams, `Invalid params: ${why}`);
  }
  if (jsonrpc !== '2.0') {
    return refused(ErrorCode.InvalidRequest, 'Invalid request: not an object with "jsonrpc": "2.0"');
  }
  if ('id' in fields && !validId) {
    return refused(ErrorCode.InvalidRequest, 'Invalid request: "id" must be a string or an integer');
  }
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
    return refused(ErrorCode.InvalidParams, 'Invalid params: "params" must be an object (MCP names its parameters)');
  }
  return refused(ErrorCode.InvalidRequest, 'Invalid request: not a JSON-RPC 2.0 request, notification or response');
}
