import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';

// Tools for adversarial tests of the CLI, the MCP server, the mock and the contract engine: a server that
// answers as an attacker would, a gzip bomb, and a child process's peak memory.

export interface HostileServer {
  readonly url: string;
  /** The requests it received, with their Authorization headers. */
  readonly requests: Array<{ method: string; url: string; authorization: string | undefined }>;
  close(): Promise<void>;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export async function startHostileServer(handler: Handler): Promise<HostileServer> {
  const requests: HostileServer['requests'] = [];
  const server = createServer((request, response) => {
    const { method = '', url = '', headers } = request;
    requests.push({ method, url, authorization: headers.authorization });
    handler(request, response);
  });
  await once(server.listen(0, '127.0.0.1'), 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** An http URL of a loopback port that refuses connections: one just listened on and closed. */
export async function refusingUrl(path: string): Promise<string> {
  const closed = createServer().listen(0, '127.0.0.1');
  await once(closed, 'listening');
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  return `http://127.0.0.1:${port}${path}`;
}

/** `bytes` of zeros, gzipped: a body some 1,000 times smaller on the wire than unpacked. */
export async function gzipBomb(bytes: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  const gzip = createGzip({ level: 9 }).on('data', (part: Buffer) => parts.push(part));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let written = 0; written < bytes; written += zeros.length) {
    if (!gzip.write(zeros)) await once(gzip, 'drain');
  }
  await once(gzip.end(), 'end');
  return Buffer.concat(parts);
}

/** Loaded into the child process: it writes its peak resident memory, in KiB, to MAX_RSS_FILE on exit. */
const REPORT_MAX_RSS = `import { writeFileSync } from 'node:fs';
process.on('exit', () => writeFileSync(process.env.MAX_RSS_FILE, String(process.resourceUsage().maxRSS)));`;

/** Environment for a child process that reports its peak resident memory; `read()` gives it in MiB. */
export function maxRssReport(): { env: Record<string, string>; read(): number } {
  const file = join(tmpdir(), `max-rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, '');
  return {
    env: { NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(REPORT_MAX_RSS)}`, MAX_RSS_FILE: file },
    read: () => Number(readFileSync(file, 'utf8')) / 1024,
  };
}

/** One canned answer of {@link cannedAnswers}: a 200 of this content type and body. */
export type CannedAnswer = { type: string; body: string };

/** A handler that plays another release of the service: the 200 filed under `METHOD /path`, else a 404. */
export function cannedAnswers(answers: Record<string, CannedAnswer>): Handler {
  return (request, response) => {
    request.resume();
    const answer = answers[`${request.method} ${request.url?.split('?')[0]}`];
    if (answer) response.writeHead(200, { 'content-type': answer.type }).end(answer.body);
    else response.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"not_found","message":"no"}');
  };
}

/** Answers as the service writes them, for canned answers to start from. */
export const CANNED = {
  profile: { id: 'prof_1', created_at: '2026-10-02T09:12:44Z', name: 'renamed' },
  login: {
    id: 'ac_1',
    flow_type: 'LOGIN',
    hosted_url: 'https://auth.example.com/l',
    flow_expires_at: '2026-11-22T20:15:00Z',
  },
  /** Log event `n` on the wire, with `extra` over its data. */
  event: (n: number, extra: object = {}) =>
    `id: ${n}\nevent: log\ndata: ${JSON.stringify({ event: 'log', timestamp: `2026-11-22T19:58:0${n}Z`, message: `line ${n}`, ...extra })}\n\n`,
};
