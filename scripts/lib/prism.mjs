// Starts Prism (from node_modules/.bin, never npx) as a mock of the document or as a validating
// proxy in front of a real server, waits until it answers, and stops it with its process group.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { OPENAPI_PATH } from './openapi-document.mjs';

const PRISM = fileURLToPath(new URL('../../node_modules/.bin/prism', import.meta.url));

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * @param {{ port?: number, host?: string, upstream?: string, quiet?: boolean, readyTimeoutMs?: number }} options
 *   With `upstream`, Prism proxies to it with `--errors`: a response that breaks the document
 *   becomes a 500 whose body names the violation.
 */
export async function startPrism({ port, host = '127.0.0.1', upstream, quiet = true, readyTimeoutMs = 20_000 } = {}) {
  const listenPort = port ?? (await freePort());
  const args = upstream
    ? ['proxy', OPENAPI_PATH, upstream, '--errors', '-h', host, '-p', String(listenPort)]
    : ['mock', OPENAPI_PATH, '-h', host, '-p', String(listenPort)];
  const child = spawn(PRISM, args, {
    stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  child.stderr?.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const url = `http://${host}:${listenPort}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, 3000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Prism exited before it was ready:\n${output}`);
    try {
      await fetch(`${url}/__ready`, { signal: AbortSignal.timeout(500) });
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`Prism did not answer on ${url} within ${readyTimeoutMs} ms:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { url, stop, exited, output: () => output };
}
