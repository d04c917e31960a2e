import { Transform } from 'node:stream';

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
 * stdin as the SDK's transport should read it: whole lines only, none over `maxBytes`. An
 * oversized line is dropped as it arrives (it is never held whole): the caller gets a JSON-RPC
 * error on `output` (with the request's `id` when it is near the start of the line, else
 * `null`), and `log` a line saying what happened.
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

  const refuse = (): void => {
    const id = requestId(dropping ?? Buffer.alloc(0));
    const message = `Message over ${maxBytes} bytes (${droppedBytes} bytes): not read`;
    output.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message } })}\n`);
    log.write(`browser-cloud-mcp: ${message}; the server goes on.\n`);
    dropping = undefined;
    droppedBytes = 0;
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
        if (dropping !== undefined) refuse();
        else {
          pending.push(Buffer.from('\n'));
          this.push(Buffer.concat(pending));
          pending = [];
          pendingBytes = 0;
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
