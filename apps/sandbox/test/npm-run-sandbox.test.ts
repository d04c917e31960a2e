import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Pids of every live descendant of `pid` (Linux /proc). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // The command name (2nd field) may hold spaces; the parent pid follows its closing parenthesis.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const walk = (p: number): void => {
    for (const child of children.get(p) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

function alive(pid: number): boolean {
  try {
    // A zombie still answers signal 0; its state letter says it is gone.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(true));
  });
}

// `npm run sandbox` runs turbo's build of the sandbox first. turbo.json makes this package's test
// task depend on that build, so the nested build finds its outputs in place and writes nothing
// while other tasks read dist/.
describe('npm run sandbox', () => {
  it('stops, with its whole process tree, on SIGTERM to the npm process', async () => {
    const npm = spawn('npm', ['run', 'sandbox', '--', '--port', '0', '--quiet'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
    let output = '';
    const url = await new Promise<URL>((resolve, reject) => {
      npm.stdout.setEncoding('utf8');
      npm.stdout.on('data', (chunk: string) => {
        output += chunk;
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match?.[1] !== undefined) resolve(new URL(match[1]));
      });
      npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      void exited.then((code) => reject(new Error(`npm run sandbox exited (${code}) before listening:\n${output}`)));
    });
    const tree = descendants(npm.pid ?? 0);
    // Also after a failure or a timeout: no server may outlive the test.
    onTestFinished(() => {
      for (const pid of [npm.pid ?? 0, ...tree].filter(alive)) process.kill(pid, 'SIGKILL');
    });
    expect(tree.length).toBeGreaterThan(0);
    expect(await refused(Number(url.port))).toBe(false);

    npm.kill('SIGTERM');
    await exited;
    // The server is a descendant of npm: it stops on the signal, not on npm's exit. Wait for the
    // tree to go (the test's timeout bounds the wait when it does not).
    while (tree.some(alive)) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await refused(Number(url.port))).toBe(true);
  });
});
