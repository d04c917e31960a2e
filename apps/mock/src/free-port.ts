import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';

/** A TCP port that was free on `host` a moment ago (the OS picks it). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = createServer().unref();
  await once(server.listen(0, host), 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
