import { validateLogEvent } from '@browser-cloud/api-types/validators';
import { getAt } from '@browser-cloud/openapi-document';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadSandboxDocument, type RunningSandbox } from '../src/index.js';
import { REFS, appendLines, call, detailMessages, expectError, inspect, start, StreamReader } from './helpers.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await start({ keepAliveMs: 25, retryMs: 1500 });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await inspect(sandbox, '/reset', 'POST');
});

const B = REFS.browsers;
const mainPath = `source=path&path=${encodeURIComponent(B.main.path)}`;
const quietPath = `source=path&path=${encodeURIComponent(B.quiet.path)}`;
const appendQuiet = (lines: string[]) =>
  appendLines(sandbox, B.quiet.id, { source: 'path', path: B.quiet.path }, lines);
/** The position of an event id `<epoch>-<n>`: its n. */
const position = (id: string | undefined) => Number(/^[0-9a-z]+-(\d+)$/.exec(id ?? '')?.[1] ?? Number.NaN);
const epochOf = (id: string | undefined) => /^([0-9a-z]+)-\d+$/.exec(id ?? '')?.[1];
const ids = (reader: StreamReader) => reader.events.map((e) => position(e.id));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('without follow', () => {
  it('sends the existing lines as log events with ids, after a retry hint, and ends', async () => {
    const reader = await StreamReader.open(sandbox, B.main.id, mainPath);
    expect(reader.response.status).toBe(200);
    expect(reader.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(reader.response.headers.get('x-request-id')).toMatch(/^req_/);
    await reader.finished();
    expect(reader.items[0]).toEqual({ kind: 'retry', ms: 1500 });
    expect(reader.events.map((e) => [position(e.id), e.event])).toEqual([
      [1, 'log'],
      [2, 'log'],
      [3, 'log'],
    ]);
    expect(new Set(reader.events.map((e) => epochOf(e.id))).size).toBe(1);
    for (const e of reader.events) {
      const data: unknown = JSON.parse(e.data);
      expect(validateLogEvent(data)).toBe(true);
      expect(data).toMatchObject({ event: 'log' });
    }
    expect(JSON.parse(reader.events[0]!.data).message).toContain('page loaded');
  });

  it('writes each event exactly as id, event and data lines', async () => {
    const r = await call(
      sandbox,
      'GET',
      `/browsers/${B.main.id}/logs/stream?source=supervisor&supervisor_process=${B.main.supervisorProcess}&follow=false`,
    );
    const epoch = /^id: ([0-9a-z]+)-1$/m.exec(String(r.body))?.[1];
    expect(r.body).toBe(
      'retry: 1500\n\n' +
        `id: ${epoch}-1\nevent: log\ndata: {"event":"log","timestamp":"2026-11-22T19:57:59.000Z","message":"chromium: started (pid 412)"}\n\n` +
        `id: ${epoch}-2\nevent: log\ndata: {"event":"log","timestamp":"2026-11-22T19:58:00.250Z","message":"chromium: DevTools listening on ws://127.0.0.1:9222/devtools/browser"}\n\n`,
    );
    expect(epoch).toMatch(/^[0-9a-z]{1,16}$/);
  });

  it('keeps multi-line messages inside one data line', async () => {
    await appendQuiet(['first\nsecond\r\nthird', 'data: not a field']);
    const reader = await StreamReader.open(sandbox, B.quiet.id, quietPath);
    await reader.finished();
    expect(reader.events.map((e) => JSON.parse(e.data).message)).toEqual([
      'first\nsecond\r\nthird',
      'data: not a field',
    ]);
  });

  it('resumes after Last-Event-ID, and starts over for one of another log or not an id', async () => {
    const all = await StreamReader.open(sandbox, B.main.id, mainPath);
    await all.finished();
    const epoch = epochOf(all.events[0]?.id);
    const resumed = await StreamReader.open(sandbox, B.main.id, mainPath, { lastEventId: `${epoch}-2` });
    await resumed.finished();
    expect(ids(resumed)).toEqual([3]);
    const past = await StreamReader.open(sandbox, B.main.id, mainPath, { lastEventId: `${epoch}-99` });
    await past.finished();
    expect(ids(past)).toEqual([]);
    for (const other of ['abc', '2', `${epoch}x-2`]) {
      const junk = await StreamReader.open(sandbox, B.main.id, mainPath, { lastEventId: other });
      await junk.finished();
      expect(ids(junk)).toEqual([1, 2, 3]);
    }
  });

  it('gives a log new ids after a reset: a client resuming with an id from before misses none of its lines', async () => {
    await appendQuiet(['old 1', 'old 2', 'old 3']);
    const before = await StreamReader.open(sandbox, B.quiet.id, quietPath);
    await before.finished();
    const lastEventId = before.events.at(-1)!.id!;
    await inspect(sandbox, '/reset', 'POST');
    await appendQuiet(['new 1', 'new 2', 'new 3', 'new 4']);
    const after = await StreamReader.open(sandbox, B.quiet.id, quietPath, { lastEventId });
    await after.finished();
    expect(after.events.map((e) => JSON.parse(e.data).message)).toEqual(['new 1', 'new 2', 'new 3', 'new 4']);
    expect(epochOf(after.events[0]?.id)).not.toBe(epochOf(lastEventId));
  });

  it('streams a large log completely and in order', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ${'x'.repeat(100)}`);
    for (let i = 0; i < lines.length; i += 1000) await appendQuiet(lines.slice(i, i + 1000));
    const reader = await StreamReader.open(sandbox, B.quiet.id, quietPath);
    await reader.finished();
    expect(ids(reader)).toEqual(range(1, 5000));
  });
});

describe('with follow', () => {
  it('sends existing lines at once, then appended lines as they come, without ending', async () => {
    const reader = await StreamReader.open(sandbox, B.main.id, `${mainPath}&follow=true`);
    // The first events arrive while the response is still open: the stream is not buffered.
    await reader.waitForEvents(3);
    expect(reader.ended).toBe(false);
    await appendLines(sandbox, B.main.id, { source: 'path', path: B.main.path }, ['appended 1', 'appended 2']);
    await reader.waitForEvents(5);
    expect(ids(reader)).toEqual([1, 2, 3, 4, 5]);
    expect(reader.events.slice(3).map((e) => JSON.parse(e.data).message)).toEqual(['appended 1', 'appended 2']);
    expect(reader.ended).toBe(false);
    reader.abort();
  });

  it('sends comment keep-alives while idle', async () => {
    const reader = await StreamReader.open(sandbox, B.quiet.id, `${quietPath}&follow=true`);
    await reader.waitFor(() => reader.items.filter((i) => i.kind === 'comment').length >= 2);
    expect(reader.items.find((i) => i.kind === 'comment')).toEqual({ kind: 'comment', text: 'keep-alive' });
    expect(reader.events).toEqual([]);
    reader.abort();
  });

  it('resumes from Last-Event-ID after a disconnect with nothing lost or repeated', async () => {
    await appendQuiet(range(1, 10).map((i) => `before ${i}`));
    const first = await StreamReader.open(sandbox, B.quiet.id, `${quietPath}&follow=true`);
    await first.waitForEvents(10);
    await appendQuiet(['live 11', 'live 12']);
    await first.waitForEvents(12);
    const lastEventId = first.events.at(-1)!.id!;
    first.abort();

    // Lines written while no one is connected.
    await appendQuiet(range(13, 20).map((i) => `offline ${i}`));
    const second = await StreamReader.open(sandbox, B.quiet.id, `${quietPath}&follow=true`, { lastEventId });
    await second.waitForEvents(8);
    await appendQuiet(['live 21']);
    await second.waitForEvents(9);
    second.abort();

    const all = [...first.events, ...second.events];
    expect(all.map((e) => position(e.id))).toEqual(range(1, 21));
    expect(all.map((e) => JSON.parse(e.data).message).slice(10, 13)).toEqual(['live 11', 'live 12', 'offline 13']);
  });

  it('delivers every line of fast appends to several followers, in order', async () => {
    const readers = await Promise.all(
      Array.from({ length: 5 }, () => StreamReader.open(sandbox, B.quiet.id, `${quietPath}&follow=true`)),
    );
    const total = 3000;
    for (let i = 0; i < total; i += 300) await appendQuiet(range(i + 1, i + 300).map((n) => `burst ${n}`));
    for (const reader of readers) {
      await reader.waitForEvents(total);
      expect(ids(reader)).toEqual(range(1, total));
      reader.abort();
    }
  });

  it('streams a source created by the first append', async () => {
    const reader404 = await call(
      sandbox,
      'GET',
      `/browsers/${B.quiet.id}/logs/stream?source=supervisor&supervisor_process=agent`,
    );
    expectError(reader404, 404, 'not_found');
    await appendLines(sandbox, B.quiet.id, { source: 'supervisor', supervisor_process: 'agent' }, ['agent up']);
    const reader = await StreamReader.open(
      sandbox,
      B.quiet.id,
      'source=supervisor&supervisor_process=agent&follow=true',
    );
    await reader.waitForEvents(1);
    reader.abort();
  });

  it('lets go of a follower when its client disconnects', async () => {
    const followers = async () => {
      const state = (await inspect(sandbox, '/state')).body as {
        browsers: Array<{ id: string; logs: Array<{ name: string; followers: number }> }>;
      };
      return state.browsers.find((b) => b.id === B.quiet.id)?.logs.find((l) => l.name === B.quiet.path)?.followers;
    };
    const readers = await Promise.all(
      [1, 2, 3].map(() => StreamReader.open(sandbox, B.quiet.id, `${quietPath}&follow=true`)),
    );
    expect(await followers()).toBe(3);
    for (const r of readers) r.abort();
    // The server sees the disconnects asynchronously: poll, bounded by the test timeout.
    while ((await followers()) !== 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await followers()).toBe(0);
  });

  it('ends open streams on reset and on close', async () => {
    const reader = await StreamReader.open(sandbox, B.main.id, `${mainPath}&follow=true`);
    await reader.waitForEvents(3);
    await inspect(sandbox, '/reset', 'POST');
    await reader.finished();
    expect(reader.ended).toBe(true);

    const own = await start();
    const held = await StreamReader.open(own, B.main.id, `${mainPath}&follow=true`);
    await held.waitForEvents(3);
    await own.close();
    await held.finished();
  });
});

describe('bad queries', () => {
  it('answers 400 when path or supervisor_process is missing for its source', async () => {
    const noPath = expectError(
      await call(sandbox, 'GET', `/browsers/${B.main.id}/logs/stream?source=path`),
      400,
      'bad_request',
    );
    expect(noPath.message).toBe('the query is invalid');
    expect(detailMessages(noPath)).toEqual(['path: is required']);
    const noProcess = expectError(
      await call(sandbox, 'GET', `/browsers/${B.main.id}/logs/stream?source=supervisor&path=/x`),
      400,
      'bad_request',
    );
    expect(detailMessages(noProcess)).toEqual(['supervisor_process: is required']);
  });

  it('answers 400 for a missing or unknown source, a bad follow, an unknown or repeated parameter', async () => {
    const sources = getAt(loadSandboxDocument(), '#/components/schemas/LogStreamQuery/properties/source/enum');
    const cases: Array<[string, string]> = [
      ['', 'source: is required'],
      [
        'source=zz_not_in_document&path=/x',
        `source: must be one of ${(sources as string[]).map((s) => `"${s}"`).join(', ')}`,
      ],
      [`${mainPath}&follow=maybe`, 'follow: must be boolean'],
      [`${mainPath}&zz_not_in_document=10`, 'zz_not_in_document: is not a known property'],
      [`${mainPath}&source=path`, 'source: must be string'],
      ['source=path&path=', 'path: must not be empty'],
    ];
    for (const [query, detail] of cases) {
      const body = expectError(
        await call(sandbox, 'GET', `/browsers/${B.main.id}/logs/stream?${query}`),
        400,
        'bad_request',
      );
      expect(detailMessages(body), query).toEqual([detail]);
    }
  });

  it('answers 404 for an unknown browser or log', async () => {
    expectError(await call(sandbox, 'GET', `/browsers/br_nope/logs/stream?${mainPath}`), 404, 'not_found');
    expectError(
      await call(sandbox, 'GET', `/browsers/${B.main.id}/logs/stream?source=path&path=/var/log/none.log`),
      404,
      'not_found',
    );
  });
});
