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
    const renamed = await call(sandbox, 'PATCH', `/profiles/${REFS.profiles.defaultProject.id}?x=1`, {
      body: { name: 'log-line' },
    });
    expect(renamed.status).toBe(200);
    const refused = await call(sandbox, 'PATCH', '/profiles/p', { token: null, body: { name: 'x' } });
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
    expect(out.lines()).toEqual([
      '19:58:03.120 error failed: boom (GET /a r1)',
      '19:58:03.120 GET /a 500 2 ms r1',
      'not json',
    ]);
  });
});
