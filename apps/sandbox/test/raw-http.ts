import { connect, type Socket } from 'node:net';
import { validateError } from '@browser-cloud/api-types/validators';
import { expect } from 'vitest';

/** One HTTP/1.1 response as it came off the wire. */
export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** How the server left the connection. */
export type RawClose = 'end' | 'reset' | 'error';

/**
 * A client connection written byte by byte, for what fetch and node:http refuse to send
 * (malformed headers, unknown methods, stalled bodies). Bytes received are kept until the
 * server closes the connection; `response()` parses the first response from them.
 */
export class RawConnection {
  readonly socket: Socket;
  #received = Buffer.alloc(0);
  #closed: Promise<RawClose>;
  #waiters: Array<() => void> = [];
  #close: RawClose | undefined;
  /** The code of the error that ended the connection, if one did. */
  errorCode: string | undefined;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#received = Buffer.concat([this.#received, chunk]);
      this.#wake();
    });
    this.#closed = new Promise((resolve) => {
      socket.on('error', (error: NodeJS.ErrnoException) => {
        this.errorCode ??= error.code;
        this.#close ??= error.code === 'ECONNRESET' ? 'reset' : 'error';
      });
      socket.on('end', () => {
        this.#close ??= 'end';
      });
      socket.on('close', () => {
        this.#close ??= 'end';
        resolve(this.#close);
        this.#wake();
      });
    });
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port) }, () => {
        socket.off('error', reject);
        resolve(new RawConnection(socket));
      });
      socket.once('error', reject);
    });
  }

  /** Every byte received so far. */
  get received(): Buffer {
    return this.#received;
  }

  /** Writes without waiting; a write the server refused ends the connection (see `closed`). */
  write(data: string | Buffer): void {
    if (!this.socket.destroyed) this.socket.write(data);
  }

  /** Resolves when the server closed the connection: `end` (FIN) or `reset`. */
  closed(): Promise<RawClose> {
    return this.#closed;
  }

  /** Resolves with the first complete response; rejects if the connection ends before one. */
  async response(): Promise<RawResponse> {
    for (;;) {
      const parsed = parseResponse(this.#received, this.#close !== undefined);
      if (parsed !== undefined) return parsed;
      if (this.#close !== undefined) {
        throw new Error(
          `connection closed (${this.#close}${this.errorCode ? ` ${this.errorCode}` : ''}) before a complete response; received ${JSON.stringify(this.#received.toString('latin1').slice(0, 200))}`,
        );
      }
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  destroy(): void {
    this.socket.destroy();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }
}

/** Sends `request` on a new connection and returns the first response. */
export async function rawRequest(url: string, request: string | Buffer): Promise<RawResponse> {
  const connection = await RawConnection.open(url);
  try {
    connection.write(request);
    return await connection.response();
  } finally {
    connection.destroy();
  }
}

function parseResponse(bytes: Buffer, closed: boolean): RawResponse | undefined {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine = '', ...lines] = bytes.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? Number.NaN);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = bytes.subarray(headEnd + 4);
  const length = headers['content-length'];
  if (length !== undefined) {
    if (rest.length < Number(length)) return undefined;
    return { status, headers, body: rest.subarray(0, Number(length)).toString('utf8') };
  }
  // No length: the body runs to the end of the connection.
  return closed ? { status, headers, body: rest.toString('utf8') } : undefined;
}

/** Asserts a raw response is the document's Error body with this status and code, and carries a request id. */
export function expectRawError(
  response: RawResponse,
  status: number,
  code: string,
): { message: string; details?: Array<{ message?: string }> } {
  expect(response.status, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.headers['x-request-id']).toMatch(/^req_[0-9a-f]{16}$/);
  const body = JSON.parse(response.body) as { code: string; message: string; details?: Array<{ message?: string }> };
  expect(validateError(body), JSON.stringify(validateError.errors)).toBe(true);
  expect(body.code).toBe(code);
  return body;
}
