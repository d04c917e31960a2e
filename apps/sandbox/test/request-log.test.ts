import { afterEach, describe, expect, it } from 'vitest';
import { readableRequestLog } from '../src/http/request-log.js';
import type { RunningSandbox } from '../src/index.js';
import { call, REFS, start, TOKENS } from './helpers.js';

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** Collects what the log writes, split into lines. */
function collector() {
  const written: string[] = [];
  return {
    stream: { write: (text: string) => void written.push(text) },
    lines: () => written.join('').split('\n').filter(Boolean),
  };
}

describe('the request log', () => {
  it('on a terminal: one readable line per request, with method, path, status, time and request id', async () => {
    const out = collector();
    sandbox = await start({ quiet: false, logStream: readableRequestLog(out.stream) });
    const renamed = await call(sandbox, 'PATCH', `/profiles/${REFS.profiles.defaultProject.id}`, {
      body: { name: 'log-line' },
    });
    expect(renamed.status).toBe(200);
    const refused = await call(sandbox, 'PATCH', '/profiles/p?x=1', { token: null, body: { name: 'x' } });
    expect(refused.status).toBe(401);
    const requests = out.lines().filter((line) => / (GET|PATCH|POST) /.test(line));
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatch(
      new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} PATCH /profiles/${REFS.profiles.defaultProject.id} 200 \\d+ ms \\S+$`),
    );
    expect(requests[1]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} PATCH \/profiles\/p 401 \d+ ms \S+$/);
    // The request id is the one the answer carried.
    expect(requests[1]?.endsWith(` ${refused.headers.get('x-request-id')}`)).toBe(true);
    expect(out.lines().some((line) => line.startsWith('{'))).toBe(false);
    expect(out.lines().join('\n')).not.toContain(TOKENS.owner);
  });

  it('piped: Fastify’s JSON entries, without headers', async () => {
    const out = collector();
    sandbox = await start({ quiet: false, logStream: out.stream });
    expect((await call(sandbox, 'PATCH', '/profiles/p', { token: null, body: { name: 'x' } })).status).toBe(401);
    const entries = out
      .lines()
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry['reqId'] !== undefined);
    expect(entries.map((entry) => entry['msg'])).toEqual(['incoming request', 'request completed']);
    expect(entries[0]?.['req']).toEqual({ method: 'PATCH', url: '/profiles/p' });
    expect(entries[1]?.['res']).toEqual({ statusCode: 401 });
  });

  it('prints other entries as time, level and message, and text that is not JSON as it is', () => {
    const out = collector();
    const log = readableRequestLog(out.stream);
    const time = Date.UTC(2026, 10, 24, 19, 58, 3, 120);
    log.write(
      `${JSON.stringify({ level: 30, time, reqId: 'r1', req: { method: 'GET', url: '/a' }, msg: 'incoming request' })}\n`,
    );
    log.write(`${JSON.stringify({ level: 50, time, reqId: 'r1', err: { message: 'boom' }, msg: 'failed' })}\n`);
    log.write(
      `${JSON.stringify({ level: 30, time, reqId: 'r1', res: { statusCode: 500 }, responseTime: 1.6, msg: 'request completed' })}\n`,
    );
    log.write('not json');
    log.write('not json either\n');
    expect(out.lines()).toEqual([
      '19:58:03.120 error failed: boom (GET /a r1)',
      '19:58:03.120 GET /a 500 2 ms r1',
      'not json',
      'not json either',
    ]);
  });

  it('names every pino level, and forgets a request once it completed', () => {
    const out = collector();
    const log = readableRequestLog(out.stream);
    const time = Date.UTC(2026, 10, 24, 19, 58, 3, 120);
    for (const level of [10, 20, 30, 40, 50, 60]) log.write(JSON.stringify({ level, time, msg: 'm' }));
    log.write(
      JSON.stringify({ level: 30, time, reqId: 'r2', req: { method: 'PATCH', url: '/b' }, msg: 'incoming request' }),
    );
    log.write(
      JSON.stringify({
        level: 30,
        time,
        reqId: 'r2',
        res: { statusCode: 200 },
        responseTime: 0,
        msg: 'request completed',
      }),
    );
    // The same id again: no longer pending, so the line has no method or path to show.
    log.write(JSON.stringify({ level: 40, time, reqId: 'r2', msg: 'late' }));
    log.write(
      JSON.stringify({
        level: 30,
        time,
        reqId: 'r3',
        res: { statusCode: 204 },
        responseTime: 0,
        msg: 'request completed',
      }),
    );
    expect(out.lines()).toEqual([
      '19:58:03.120 trace m',
      '19:58:03.120 debug m',
      '19:58:03.120 info m',
      '19:58:03.120 warn m',
      '19:58:03.120 error m',
      '19:58:03.120 fatal m',
      '19:58:03.120 PATCH /b 200 0 ms r2',
      '19:58:03.120 warn late',
      '19:58:03.120 - - 204 0 ms r3',
    ]);
  });

  it('keeps at most 10,000 requests waiting for completion, dropping the oldest', () => {
    const out = collector();
    const log = readableRequestLog(out.stream);
    const time = Date.UTC(2026, 10, 24, 19, 58, 3, 120);
    for (let i = 0; i <= 10_000; i++) {
      log.write(
        JSON.stringify({ time, reqId: `r${i}`, req: { method: 'GET', url: `/${i}` }, msg: 'incoming request' }),
      );
    }
    for (const i of [0, 1, 10_000]) {
      log.write(
        JSON.stringify({ time, reqId: `r${i}`, res: { statusCode: 200 }, responseTime: 0, msg: 'request completed' }),
      );
    }
    expect(out.lines()).toEqual([
      '19:58:03.120 - - 200 0 ms r0',
      '19:58:03.120 GET /1 200 0 ms r1',
      '19:58:03.120 GET /10000 200 0 ms r10000',
    ]);
  });
});
