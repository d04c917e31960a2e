// A proxy in front of a server that plants one contract bug: it rewrites requests on their way in
// or answers on their way out. The engine's own tests put it in front of the sandbox, which keeps
// the contract, and expect the engine to catch the planted bug.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface ProxiedAnswer {
  request: ProxiedRequest;
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Fault {
  /** Answers a request itself, without passing it on, when it returns an answer. */
  intercept?: (request: ProxiedRequest) => Omit<ProxiedAnswer, 'request'> | undefined;
  /** Rewrites the request before it reaches the server. */
  request?: (request: ProxiedRequest) => ProxiedRequest;
  /** Rewrites a whole (non-stream) answer. */
  answer?: (answer: ProxiedAnswer) => ProxiedAnswer;
  /** Rewrites an event stream line by line as it passes, and may change its headers. */
  streamLine?: (line: string) => string;
  streamHeaders?: (headers: Record<string, string>) => Record<string, string>;
}

const MAX_BODY = 1024 * 1024;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) request.destroy(new Error('body over the fault proxy limit'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function plainHeaders(headers: Headers | IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers] : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value === undefined || HOP_BY_HOP.has(name.toLowerCase())) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

export async function startFaultProxy(
  upstream: string,
  fault: Fault,
): Promise<{ url: string; close(): Promise<void> }> {
  const handle = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const original: ProxiedRequest = {
      method: incoming.method ?? 'GET',
      url: incoming.url ?? '/',
      headers: plainHeaders(incoming.headers),
      body: await readBody(incoming),
    };
    const request = fault.request ? fault.request(original) : original;
    const own = fault.intercept?.(request);
    if (own) {
      outgoing.writeHead(own.status, own.headers);
      outgoing.end(own.body);
      return;
    }
    const abort = new AbortController();
    outgoing.on('close', () => abort.abort());
    const response = await fetch(`${upstream}${request.url}`, {
      method: request.method,
      headers: request.headers,
      body: request.method === 'GET' || request.method === 'HEAD' || request.body === '' ? null : request.body,
      signal: abort.signal,
    });
    const headers = plainHeaders(response.headers);
    if ((headers['content-type'] ?? '').startsWith('text/event-stream') && response.body) {
      outgoing.writeHead(response.status, fault.streamHeaders ? fault.streamHeaders(headers) : headers);
      let pending = '';
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        pending += decoder.decode(next.value, { stream: true });
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        outgoing.write(lines.map((line) => `${fault.streamLine ? fault.streamLine(line) : line}\n`).join(''));
      }
      outgoing.end(pending);
      return;
    }
    const answer = { request, status: response.status, headers, body: await response.text() };
    const changed = fault.answer ? fault.answer(answer) : answer;
    outgoing.writeHead(changed.status, changed.headers);
    outgoing.end(changed.body);
  };
  const server = createServer((incoming, outgoing) => {
    handle(incoming, outgoing).catch(() => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
