import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/lib/prism.mjs';

const MOCK = fileURLToPath(new URL('../../../scripts/mock.mjs', import.meta.url));

async function waitFor(url: string, deadline: number): Promise<Response> {
  for (;;) {
    try {
      return await fetch(url, {
        method: 'POST',
        headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' },
        body: '{}',
      });
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

// Independent of the target: run it once, with the mock target.
describe.skipIf(process.env.CONTRACT_MODE !== 'mock')('npm run mock', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'serves the document on $PORT and stops cleanly, Prism included, on %s',
    async (signal) => {
      const port = await freePort();
      const child = spawn(process.execPath, [MOCK], { env: { ...process.env, PORT: String(port) }, stdio: 'pipe' });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const response = await waitFor(`http://127.0.0.1:${port}/auth/connections/ac_1/login`, Date.now() + 15_000);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ flow_type: 'LOGIN' });

      child.kill(signal);
      expect(await exited).toBe(0);
      // Prism went with it: nothing answers on the port any more.
      await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    },
    30_000,
  );

  it('refuses a PORT that is not a port number', async () => {
    const child = spawn(process.execPath, [MOCK], { env: { ...process.env, PORT: 'eighty' }, stdio: 'pipe' });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('PORT must be a TCP port number');
  });
});
