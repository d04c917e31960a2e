// A proxy in front of a server that plants one contract bug: it rewrites requests on their way in
// or answers on their way out. The engine's own tests put it in front of the sandbox, which keeps
// the contract, and expect the engine to catch the planted bug.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { type HostileServer, startHostileServer } from '@browser-cloud/sandbox';
import { readBoundedBody } from '@browser-cloud/sse';

export interface ProxiedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type ProxiedAnswer = { request: ProxiedRequest; status: number; headers: Record<string, string>; body: string };

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

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

/** Lower-case names, hop-by-hop headers dropped. */
const plainHeaders = (headers: Headers): Record<string, string> =>
  Object.fromEntries([...headers].filter(([name]) => !HOP_BY_HOP.has(name)));

async function handle(upstream: string, fault: Fault, incoming: IncomingMessage, outgoing: ServerResponse) {
  const original: ProxiedRequest = {
    method: incoming.method ?? 'GET',
    url: incoming.url ?? '/',
    headers: plainHeaders(new Headers(incoming.headers as Record<string, string>)),
    body: (await readBoundedBody(Readable.toWeb(incoming) as ReadableStream<Uint8Array>, 1024 * 1024)).text,
  };
  const request = fault.request?.(original) ?? original;
  const own = fault.intercept?.(request);
  if (own) {
    outgoing.writeHead(own.status, own.headers).end(own.body);
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
    outgoing.writeHead(response.status, fault.streamHeaders?.(headers) ?? headers);
    let pending = '';
    for await (const chunk of response.body.pipeThrough(new TextDecoderStream()) as unknown as AsyncIterable<string>) {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      outgoing.write(lines.map((line) => `${fault.streamLine?.(line) ?? line}\n`).join(''));
    }
    outgoing.end(pending);
    return;
  }
  const answer = { request, status: response.status, headers, body: await response.text() };
  const changed = fault.answer?.(answer) ?? answer;
  outgoing.writeHead(changed.status, changed.headers).end(changed.body);
}

export function startFaultProxy(upstream: string, fault: Fault): Promise<HostileServer> {
  return startHostileServer((incoming, outgoing) => {
    handle(upstream, fault, incoming, outgoing).catch(() => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
  });
}
