import { Transform } from 'node:stream';
import { ClientRequestSchema, ErrorCode, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * The longest JSON-RPC line (one message) the server reads: 4 MiB, far above any call of its
 * tools. The SDK's stdio transport stops reading for good at 10 MiB, silently; a longer line
 * is answered here instead, and the server keeps serving.
 */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** How much of an oversized line is kept to find its `id`, so the caller waiting on it gets the error. */
const ID_SEARCH_BYTES = 4096;

interface Writable {
  write(chunk: string): unknown;
}

/**
 * stdin as the SDK's transport should read it: whole lines only, none over `maxBytes`, each a
 * JSON-RPC message the SDK takes (see {@link screenLine}); empty lines are no message and are
 * left out. A line refused gets a JSON-RPC error on `output`, and `log` a line saying what
 * happened. An oversized line is dropped as it arrives (it is never held whole); its error has
 * the request's `id` when it is near the start of the line, else `null`.
 */
export function guardStdin(
  input: NodeJS.ReadableStream,
  output: Writable,
  log: Writable,
  maxBytes: number = MAX_MESSAGE_BYTES,
): Transform {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** The start of the oversized line being dropped, or undefined when none is. */
  let dropping: Buffer | undefined;
  let droppedBytes = 0;

  const refuse = ({ id, code, message }: Refusal): void => {
    output.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
    log.write(`browser-cloud-mcp: ${message}; the server goes on.\n`);
  };

  const guard = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let start = 0;
      while (start <= chunk.length) {
        const newline = chunk.indexOf(0x0a, start);
        const end = newline === -1 ? chunk.length : newline;
        const segment = chunk.subarray(start, end);
        if (dropping !== undefined) {
          droppedBytes += segment.length;
        } else if (pendingBytes + segment.length > maxBytes) {
          dropping = Buffer.concat([...pending, segment]).subarray(0, ID_SEARCH_BYTES);
          droppedBytes = pendingBytes + segment.length;
          pending = [];
          pendingBytes = 0;
        } else if (segment.length > 0) {
          pending.push(Buffer.from(segment));
          pendingBytes += segment.length;
        }
        if (newline === -1) break;
        if (dropping !== undefined) {
          const message = `Message over ${maxBytes} bytes (${droppedBytes} bytes): not read`;
          refuse({ id: requestId(dropping), code: ErrorCode.InvalidRequest, message });
          dropping = undefined;
          droppedBytes = 0;
        } else {
          pending.push(Buffer.from('\n'));
          const line = Buffer.concat(pending);
          pending = [];
          pendingBytes = 0;
          const text = line.toString('utf8');
          // An empty line is no message (the SDK would take it for a broken one).
          if (text.trim() !== '') {
            const refusal = screenLine(text);
            if (refusal) refuse(refusal);
            else this.push(line);
          }
        }
        start = newline + 1;
      }
      done();
    },
  });
  input.pipe(guard);
  return guard;
}

/** The `id` of a JSON-RPC request from the start of its line, when it is there; JSON-RPC says `null` otherwise. */
function requestId(head: Buffer): string | number | null {
  const match = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,256}")/.exec(head.toString('utf8'));
  if (!match?.[1]) return null;
  try {
    const id: unknown = JSON.parse(match[1]);
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

interface Refusal {
  id: string | number | null;
  code: ErrorCode;
  message: string;
}

/** The SDK's schema of each request a client may send, by method (`tools/call`: CallToolRequestSchema). */
const REQUEST_SCHEMAS = new Map<unknown, (typeof ClientRequestSchema.options)[number]>(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]),
);

/**
 * What JSON-RPC 2.0 answers to a line that the SDK would drop without a word (its transport
 * reads only what parses as one of its messages, and tells no one of the rest), or to a known
 * request whose params the SDK would refuse as an internal error (-32603, with zod's report):
 * -32700 for a line that is not JSON, -32600 for a batch (MCP 2025-06-18 dropped batching) or
 * any other invalid message, -32602 for params that are not an object or do not fit the
 * method. Undefined for a line the SDK takes.
 */
export function screenLine(line: string): Refusal | undefined {
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
