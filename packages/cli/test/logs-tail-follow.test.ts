import {
  DEFAULT_FIXTURE,
  DEFAULT_FIXTURE_REFS as R,
  type FixtureLogLine,
  type RunningSandbox,
  type SandboxFixture,
  startSandbox,
} from '@browser-cloud/sandbox';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RunningBin } from './run-bin.js';

const QUIET = { source: 'path', path: R.browsers.quiet.path } as const;
const TAIL = ['logs', 'tail', R.browsers.quiet.id, '--source', 'path', '--path', R.browsers.quiet.path, '--follow'];

/**
 * The default fixture with these lines in the quiet browser's log: a sandbox's state, as a
 * fixture. With the `epoch` of the log served before, it is that log restored (its ids resume).
 */
function fixtureWith(lines: FixtureLogLine[], epoch?: string): SandboxFixture {
  const fixture = structuredClone(DEFAULT_FIXTURE) as SandboxFixture;
  const quiet = fixture.browsers.find((browser) => browser.id === R.browsers.quiet.id);
  if (!quiet) throw new Error('the default fixture has no quiet browser');
  quiet.logs = [{ ...QUIET, lines, ...(epoch === undefined ? {} : { epoch }) }];
  return fixture;
}

/** The sandbox's ids are the log's epoch and the line's position. */
const epochOf = (id: string) => id.slice(0, id.lastIndexOf('-'));

async function append(sandbox: RunningSandbox, lines: FixtureLogLine[]): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/browsers/${R.browsers.quiet.id}/logs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...QUIET, lines }),
  });
  expect(response.status).toBe(200);
}

const events = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { id: string; message: string; timestamp: string });

const running: RunningBin[] = [];
const sandboxes: RunningSandbox[] = [];
const fronts: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  for (const bin of running.splice(0)) if (bin.child.exitCode === null) bin.child.kill('SIGKILL');
  for (const front of fronts.splice(0)) await front.close();
  for (const sandbox of sandboxes.splice(0)) await sandbox.close();
});

/**
 * A TCP front on a port the test holds for its whole length, forwarding to the sandbox of the
 * moment: a restart needs no second bind of a released port (which another process may take).
 * Without a sandbox behind it, it drops each connection at once.
 */
async function tcpFront(): Promise<{ url: string; forwardTo(port: number | undefined): void; close(): Promise<void> }> {
  let backend: number | undefined;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const server = createServer((client) => {
    track(client);
    if (backend === undefined) {
      client.destroy();
      return;
    }
    const upstream = connect(backend, '127.0.0.1');
    track(upstream);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwardTo: (next) => {
      backend = next;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function start(options: Parameters<typeof startSandbox>[0]): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ quiet: true, ...options });
  sandboxes.push(sandbox);
  return sandbox;
}

describe('logs tail --follow', () => {
  it('survives a restart of the sandbox and resumes with no gap or repeat; Ctrl-C prints the last ID', async () => {
    const before = await start({ port: 0, fixture: fixtureWith([]) });
    const front = await tcpFront();
    fronts.push(front);
    front.forwardTo(before.port);
    const env = { BROWSER_CLOUD_BASE_URL: front.url, BROWSER_CLOUD_API_KEY: R.tokens.owner };
    const tail = new RunningBin(TAIL, env);
    running.push(tail);

    await append(before, ['a1', 'a2']);
    await tail.waitFor('stdout', /"a2"/);

    // The restart: the first sandbox ends its streams and stops listening; the CLI reconnects.
    const served = events(tail.stdout);
    front.forwardTo(undefined);
    await before.close();
    await tail.waitFor('stderr', /connection failed/);
    // The same state behind the same address: the lines it had, with their timestamps, in the same log.
    const epoch = epochOf(served[0]!.id);
    const after = await start({
      port: 0,
      fixture: fixtureWith(
        served.map(({ timestamp, message }) => ({ timestamp, message })),
        epoch,
      ),
    });
    front.forwardTo(after.port);
    await append(after, ['b1', 'b2']);
    await tail.waitFor('stdout', /"b2"/);
    await tail.waitFor('stderr', /reconnected/);

    tail.child.kill('SIGINT');
    const { code, stdout, stderr } = await tail.finished();
    expect(code).toBe(130);
    expect(events(stdout).map((event) => [event.id, event.message])).toEqual([
      [`${epoch}-1`, 'a1'],
      [`${epoch}-2`, 'a2'],
      [`${epoch}-3`, 'b1'],
      [`${epoch}-4`, 'b2'],
    ]);
    expect(stderr).toContain(`reconnecting after event ${epoch}-2 (attempt `);
    expect(stderr.trim().split('\n').at(-1)).toBe(`Stopped after event ${epoch}-4. Resume with: --since-id ${epoch}-4`);
  });

  it('prints lines as they come, and --since-id resumes where a stopped tail ended', async () => {
    const sandbox = await start({ port: 0, fixture: fixtureWith(['one', 'two']) });
    const env = { BROWSER_CLOUD_BASE_URL: sandbox.url, BROWSER_CLOUD_API_KEY: R.tokens.owner };
    const first = new RunningBin([...TAIL, '--json'], env);
    running.push(first);
    await first.waitFor('stdout', /"two"/);
    await append(sandbox, ['three']);
    await first.waitFor('stdout', /"three"/);
    first.child.kill('SIGINT');
    const stopped = await first.finished();
    expect(stopped.code).toBe(130);
    // With --json the resume point is JSON too.
    const third = events(first.stdout)[2]!.id;
    expect(JSON.parse(stopped.stderr.trim().split('\n').at(-1) ?? '')).toEqual({ stopped: true, last_event_id: third });

    await append(sandbox, ['four']);
    const second = new RunningBin([...TAIL, '--since-id', third], env);
    running.push(second);
    await second.waitFor('stdout', /"four"/);
    second.child.kill('SIGTERM');
    const resumed = await second.finished();
    expect(resumed.code).toBe(143);
    expect(events(resumed.stdout).map((event) => event.message)).toEqual(['four']);
  });
});
