import { createServer } from 'node:net';

/** A TCP port that was free on `host` a moment ago (the OS picks it). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close(() => reject(new Error(`no TCP port was assigned on ${host}`)));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}
