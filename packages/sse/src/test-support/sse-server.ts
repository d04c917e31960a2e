import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Answers request number `index` (0-based). */
export type Handler = (context: { req: IncomingMessage; res: ServerResponse; index: number }) => void | Promise<void>;
export type TestServer = Awaited<ReturnType<typeof startServer>>;

/** A real `node:http` server on 127.0.0.1, port 0, answering each request with `handler`. */
export async function startServer(handler: Handler) {
  const requests: { readonly headers: IncomingHttpHeaders; readonly url: string }[] = [];
  const sockets = new Set<Socket>();
  let closed = 0;
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const index = requests.length;
    requests.push({ headers: req.headers, url: req.url ?? '' });
    Promise.resolve(handler({ req, res, index })).catch((error: Error) => res.destroy(error));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      closed++;
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/browsers/b1/logs/stream`,
    requests,
    /** Resolves when `count` client sockets have closed (the test's own timeout bounds the wait). */
    async waitForClosedSockets(count: number): Promise<void> {
      while (closed < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    async close(): Promise<void> {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes the status line and SSE headers. */
export function openStream(res: ServerResponse, contentType = 'text/event-stream'): void {
  res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  res.flushHeaders();
}

export function logEvent(id: number | undefined, message: string): string {
  const data = JSON.stringify({ event: 'log', timestamp: '2025-01-01T00:00:00.000Z', message });
  return `${id === undefined ? '' : `id: ${id}\n`}data: ${data}\n\n`;
}
