import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const RUNNER = fileURLToPath(new URL('./run-contract.mjs', import.meta.url));
const TOKEN = 'sk_secret_runner_token';
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function runner(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [RUNNER], { env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('the runner', () => {
  it('writes junit.xml (one failed case, preflight) and summary.json when the preflight refuses the run', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"code":"unauthorized","message":"bad token"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => server.close());
    const reports = mkdtempSync(join(tmpdir(), 'contract-reports-'));
    cleanups.push(() => rmSync(reports, { recursive: true, force: true }));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const { code, output } = await runner({
      API_BASE_URL: baseUrl,
      API_TOKEN: TOKEN,
      API_UPSTREAM_URL: '',
      CONTRACT_REPORTS_DIR: reports,
      CONTRACT_SEED: '5',
    });

    expect(code).toBe(1);
    const message = `preflight: ${baseUrl} refused API_TOKEN (401 Unauthorized); check the token; no case was run`;
    expect(output).toContain(message);
    const junit = readFileSync(join(reports, 'server', 'junit.xml'), 'utf8');
    expect(junit).toContain('<testsuites name="contract server" tests="1" failures="1" skipped="0" errors="0">');
    expect(junit).toContain(`<testcase classname="preflight" name="preflight">\n      <failure message="${message}">`);
    const summary = JSON.parse(readFileSync(join(reports, 'server', 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({ target: 'server', seed: 5, exitCode: 1, failed: 1, preflight: message });
    expect(junit + JSON.stringify(summary) + output).not.toContain(TOKEN);
  });
});
