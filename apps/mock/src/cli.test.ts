import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// The built CLI (the package's test script builds first), as `npm run mock` runs it.
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const APP = fileURLToPath(new URL('..', import.meta.url));

interface Run {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: Run[] = [];
afterEach(async () => {
  // A failed test must not leave a mock behind. SIGTERM first, so that the mock stops Prism (its
  // own process group); SIGKILL for whatever is still there after a while.
  for (const { child, exited } of started.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) continue;
    const group = -child.pid;
    const signal = (name: NodeJS.Signals): void => {
      try {
        process.kill(group, name);
      } catch {}
    };
    signal('SIGTERM');
    const timer = setTimeout(() => signal('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
});

function run(command: string, args: string[], env: Record<string, string>, cwd = ROOT): Run {
  // Its own process group, so that a failed test can end everything it started.
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const result = { child, stdout: () => stdout, stderr: () => stderr, exited };
  started.push(result);
  return result;
}

/** Resolves with the front's and Prism's URLs once the CLI says it listens. */
async function listening(mock: Run): Promise<{ front: string; prism: string }> {
  const pattern = /listening on (http:\S+)[\s\S]*without the front's checks: (http:\S+)/;
  while (!pattern.test(mock.stdout())) {
    const data = once(mock.child.stdout, 'data');
    const ended = mock.exited.then(({ code }) => {
      throw new Error(`the mock exited (${code}) before listening:\n${mock.stdout()}\n${mock.stderr()}`);
    });
    await Promise.race([data, ended]);
  }
  const [, front, prism] = pattern.exec(mock.stdout())!;
  return { front: front!, prism: prism! };
}

async function answers(url: string): Promise<boolean> {
  return fetch(`${url}/`).then(
    () => true,
    () => false,
  );
}

describe('the mock CLI (npm run mock)', () => {
  // PORT=0: the system picks a free port when the front binds it, and the CLI prints it (no port is
  // chosen before it is bound). That PORT is honoured shows in the test of a taken port below.
  it('serves the document on the port it prints and stops on SIGINT (Ctrl-C), Prism included', async () => {
    const mock = run(process.execPath, [CLI], { PORT: '0' });
    const { front, prism } = await listening(mock);
    expect(front).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    expect(prism).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    const login = await fetch(`${front}/auth/connections/ac_1/login`, {
      method: 'POST',
      headers: { authorization: 'Bearer t' },
    });
    expect(login.status).toBe(200);

    mock.child.kill('SIGINT');
    expect(await mock.exited).toEqual({ code: 0, signal: null });
    // Nothing is left behind: neither the front nor Prism answers.
    expect(await answers(front)).toBe(false);
    expect(await answers(prism)).toBe(false);
  });

  it('stops, Prism included, when the npm process that started it gets SIGTERM', async () => {
    // `npm run start` here runs the same `exec node …cli.js` as the root `npm run mock` after its
    // build (checked below), without a nested turbo build in the middle of the test run.
    const npm = run('npm', ['run', '--silent', 'start'], { PORT: '0' }, APP);
    const { front, prism } = await listening(npm);
    // The signal goes to npm's pid only, as `kill -TERM <pid>` does: npm hands it to its child,
    // which is the mock itself (the script `exec`s it), not a shell that would exit and leave the
    // mock running, re-parented.
    process.kill(npm.child.pid!, 'SIGTERM');
    await npm.exited;
    expect(await answers(front)).toBe(false);
    expect(await answers(prism)).toBe(false);
  });

  it('leaves no Prism behind even when the mock itself is killed outright (SIGKILL)', async () => {
    const mock = run(process.execPath, [CLI], { PORT: '0' });
    const { prism } = await listening(mock);
    expect(await answers(prism)).toBe(true);
    mock.child.kill('SIGKILL');
    await mock.exited;
    // Prism notices its parent is gone (its stdin ends) and exits: wait for its port to close
    // (a Prism that lives on holds the test until its time limit).
    while (await answers(prism)) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await answers(prism)).toBe(false);
  });

  it('is exec-ed by the npm scripts, so that npm signals the mock itself', () => {
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const app = JSON.parse(readFileSync(join(APP, 'package.json'), 'utf8'));
    expect(root.scripts.mock).toMatch(/ && exec node apps\/mock\/dist\/cli\.js$/);
    expect(app.scripts.start).toBe('exec node dist/cli.js');
  });

  it('fails with one line when its port is taken, and never says it listens', async () => {
    const other = createServer((_req, res) => res.end('not the mock'));
    other.listen(0, '127.0.0.1');
    await once(other, 'listening');
    const { port } = other.address() as { port: number };
    try {
      const mock = run(process.execPath, [CLI], { PORT: String(port) });
      expect(await mock.exited).toEqual({ code: 1, signal: null });
      expect(mock.stderr()).toBe(
        `mock: port ${port} on 127.0.0.1 is already in use: stop what holds it, or choose another port (PORT=…)\n`,
      );
      expect(mock.stdout()).not.toContain('listening');
    } finally {
      other.close();
    }
  });

  it('says "run npm ci", without a stack, when Prism is missing', async () => {
    const mock = run(process.execPath, [CLI], { PORT: '0', PRISM_BIN: '/nowhere/prism.js' });
    expect(await mock.exited).toEqual({ code: 1, signal: null });
    expect(mock.stderr()).toBe('mock: Prism is not installed (/nowhere/prism.js not found): run npm ci\n');
    // The front had bound its port (the first line says so), but the mock never says it listens.
    expect(mock.stdout()).toMatch(/^(Mock front bound to http:\/\/127\.0\.0\.1:\d+; starting Prism…\n)?$/);
  });

  it('prints its usage for --help, and starts nothing', async () => {
    const mock = run(process.execPath, [CLI, '--help'], { PORT: '1' });
    expect(await mock.exited).toEqual({ code: 0, signal: null });
    expect(mock.stdout()).toMatch(/^Usage: npm run mock/);
    expect(mock.stdout()).not.toContain('listening');
  });

  it('refuses an argument instead of ignoring it (exit 2)', async () => {
    const mock = run(process.execPath, [CLI, '--port', '4011'], { PORT: '1' });
    expect(await mock.exited).toEqual({ code: 2, signal: null });
    expect(mock.stderr()).toMatch(/^mock: unknown argument "--port" \(the port is set by PORT\)/);
    expect(mock.stdout()).toBe('');
  });

  it('refuses a PORT that is not a port number', async () => {
    const mock = run(process.execPath, [CLI], { PORT: 'eighty' });
    expect(await mock.exited).toEqual({ code: 2, signal: null });
    expect(mock.stderr()).toBe('PORT must be a TCP port number (1-65535, or 0 for a free one), got "eighty"\n');
  });
});
