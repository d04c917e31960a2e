import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { gzipBomb, type HostileServer, maxRssReport, startHostileServer } from '@browser-cloud/test-servers';
import type { ServerResponse } from 'node:http';
import { runCli } from './memory-io.js';
import { runBin } from './run-bin.js';

// The built bin against a server that answers as an attacker would: no token leaks, no hang,
// bounded memory, the README's exit codes, and nothing a terminal would act on.
const TOKEN = 'sk_hostile_0f9e8d7c6b5a';
/** The CLI's own memory bound on any answer (the issue's: under 256 MiB). */
const MAX_RSS_MIB = 256;
const TAIL = ['logs', 'tail', 'br_1', '--source', 'path', '--path', '/x.log'];

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const env = (url: string, token = TOKEN) => ({ BROWSER_CLOUD_BASE_URL: url, BROWSER_CLOUD_API_KEY: token });

/** Every control character but the line feeds of the CLI's own lines. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('a gzip bomb as a 2xx answer', () => {
  let bomb: Buffer;
  beforeAll(async () => {
    // 512 MiB unpacked, about half a megabyte on the wire.
    bomb = await gzipBomb(512 * 1024 * 1024);
  });

  it('is cut at the documented bound: exit 1 naming it, memory under 256 MiB', async () => {
    server = await startHostileServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(bomb);
    });
    const rss = maxRssReport();
    const result = await runBin(['profiles', 'rename', 'prof_1', 'x'], { ...env(server.url), ...rss.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^browser-cloud: The response body is over 1048576 bytes \(MAX_RESPONSE_BODY_BYTES/);
    // Reported at exit (an empty report would read 0).
    console.info(`peak memory of the CLI on a gzip bomb: ${rss.read().toFixed(0)} MiB`);
    expect(rss.read()).toBeGreaterThan(10);
    expect(rss.read()).toBeLessThan(MAX_RSS_MIB);
    expect(server.requests).toHaveLength(1);
  });
});

describe('the token', () => {
  it('given with a trailing newline, is sent trimmed and never printed, whatever the server echoes', async () => {
    const leaks: string[] = [];
    server = await startHostileServer((request, response) => {
      const echoed = request.headers.authorization ?? '';
      if (request.url?.startsWith('/browsers/')) {
        // An event whose property name and ID are the token, after one good event.
        const good = JSON.stringify({ event: 'log', timestamp: '2026-11-22T19:58:03.120Z', message: echoed });
        // Unknown properties pass (a tolerant reader); a mistyped known one does not.
        const bad = JSON.stringify({ event: 'log', timestamp: '2026-11-22T19:58:03.120Z', message: 5, [TOKEN]: 1 });
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(`id: 1\ndata: ${good}\n\nid: ${TOKEN}\ndata: ${bad}\n\n`);
        return;
      }
      response.writeHead(401, { 'content-type': 'application/json', 'x-request-id': echoed });
      response.end(JSON.stringify({ code: 'unauthorized', message: `bad key ${echoed}` }));
    });
    for (const args of [['profiles', 'rename', 'prof_1', 'x'], ['profiles', 'rename', 'prof_1', 'x', '--json'], TAIL]) {
      const result = await runCli(args, env(server.url, `${TOKEN}\n`));
      leaks.push(result.stdout, result.stderr);
      expect(result.code, result.stderr).toBe(args === TAIL ? 1 : 4);
    }
    expect(server.requests.map((request) => request.authorization)).toEqual(Array(3).fill(`Bearer ${TOKEN}`));
    for (const output of leaks) expect(output).not.toContain(TOKEN);
  });
});

describe('escape sequences from the server', () => {
  const title = '\u001b]0;pwned\u0007';

  it('reach the terminal as text in errors; NDJSON keeps them exact', async () => {
    server = await startHostileServer((request, response) => {
      if (request.url?.startsWith('/browsers/')) {
        const data = JSON.stringify({
          event: 'log',
          timestamp: '2026-11-22T19:58:03.120Z',
          message: `${title}\u001b[2J`,
        });
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(`id: 1\u001b[H\ndata: ${data}\n\n`);
        return;
      }
      // A header cannot carry ESC; C1's one-byte CSI it can.
      response.writeHead(404, { 'content-type': 'application/json', 'x-request-id': 'req_\u009b2J' });
      response.end(JSON.stringify({ code: 'not_found', message: `no such profile${title}\u001b[2J` }));
    });
    const refused = await runCli(['profiles', 'rename', 'prof_1', 'x'], env(server.url));
    expect(refused.code).toBe(5);
    expect(refused.stderr).toBe(
      'browser-cloud: 404 not_found: no such profile\\u001b]0;pwned\\u0007\\u001b[2J\n  request ID: req_\\u009b2J\n',
    );
    const tail = await runCli(TAIL, env(server.url));
    expect(tail.code).toBe(0);
    expect(tail.stdout).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(tail.stdout)).toMatchObject({ id: '1\u001b[H', message: `${title}\u001b[2J` });
    const json = await runCli(['profiles', 'rename', 'prof_1', 'x', '--json'], env(server.url));
    expect(json.stderr).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(json.stderr).error.message).toBe(`404 not_found: no such profile${title}\u001b[2J`);
  });
});

describe('a log stream that answers 200 and then delivers no event', () => {
  const drop = (response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.flushHeaders();
    response.destroy();
  };
  const cases: Array<[string, string[], (response: ServerResponse) => void, number]> = [
    ['drops before any byte, with --follow', ['--follow'], drop, 8],
    ['drops before any byte, without --follow', [], drop, 8],
    [
      'sends a comment, then drops',
      ['--follow'],
      (response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(': keep-alive\n\n', () => response.destroy());
      },
      8,
    ],
    [
      'sends an invalid gzip body',
      ['--follow'],
      (response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
        response.end('not gzip at all');
      },
      8,
    ],
    // Ended normally every time: the tail ends quietly once its reconnects are spent.
    [
      'ends every stream empty, with --follow',
      ['--follow'],
      (response) => response.writeHead(200, { 'content-type': 'text/event-stream' }).end(),
      0,
    ],
  ];

  it.each(cases)('%s: gives up after --max-retries 2, numbering the attempts', async (_name, flags, answer, code) => {
    server = await startHostileServer((_request, response) => answer(response));
    const result = await runCli([...TAIL, ...flags, '--max-retries', '2'], env(server.url));
    expect(result.code, result.stderr).toBe(code);
    expect(server.requests).toHaveLength(3);
    expect([...result.stderr.matchAll(/reconnecting \(attempt (\d+) of 2\)/g)].map((match) => match[1])).toEqual([
      '1',
      '2',
    ]);
    expect(result.stderr).not.toContain('reconnected');
  });
});

describe('exit codes, as the README’s table says', () => {
  it('2 for bad input found before any request; 3 for a base URL with credentials', async () => {
    server = await startHostileServer((_request, response) => response.writeHead(500).end());
    const cases: Array<[string[], Record<string, string>, number]> = [
      [[...TAIL, '--since-id', '4\u001b[2J'], env(server.url), 2],
      [[...TAIL, '--since-id', '4\u0007'], env(server.url), 2],
      [[...TAIL, '--max-retries', '9'.repeat(400)], env(server.url), 2],
      [['profiles', 'rename', '..', 'x'], env(server.url), 2],
      [['profiles', 'rename', '.', 'x'], env(server.url), 2],
      [['auth', 'connections', 'login', 'ac_1', '--browser-telemetry', '__proto__'], env(server.url), 2],
      [['auth', 'connections', 'login', 'ac_1', '--browser-telemetry', 'off,__proto__'], env(server.url), 2],
      [['auth', 'connections', 'login', 'ac_1', '--browser-telemetry', '{"__proto__":{}}'], env(server.url), 2],
      [['profiles', 'rename', 'prof_1', 'x'], env(server.url.replace('://', '://user:pw@')), 3],
    ];
    for (const [args, environment, code] of cases) {
      const result = await runCli(args, environment);
      expect(result.code, `${args.join(' ')}\n${result.stderr}`).toBe(code);
    }
    expect(server.requests).toEqual([]);
  });

  it('a profile addressed as ".." says to address it by its ID', async () => {
    server = await startHostileServer((_request, response) => response.writeHead(500).end());
    const result = await runCli(['profiles', 'rename', '..', 'x'], env(server.url));
    expect(result.stderr).toMatch(
      /^browser-cloud: path\.id_or_name: "\.\." cannot be sent in a URL .*address the profile by its ID\n$/,
    );
  });
});
