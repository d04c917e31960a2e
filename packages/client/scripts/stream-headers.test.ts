// A header parameter of an event stream, added to a scratch copy of the document: the generated
// stream sends it, typed and written in the `simple` style, on its connection beside the caller's
// own headers, and refuses a value the document refuses before connecting.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOpenApiDocument, type OperationObject } from '@browser-cloud/openapi-document';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedFetch, TOKEN } from '../src/test-support/mock-fetch.js';
import { scratchClient } from '../src/test-support/scratch-client.js';

const document = structuredClone(loadOpenApiDocument());
const stream = document.paths!['/browsers/{id}/logs/stream']!.get as OperationObject;
stream.parameters = [
  ...(stream.parameters ?? []),
  { name: 'X-Trace-Depth', in: 'header', schema: { type: 'integer', minimum: 1 } },
];

const event = `id: 1\ndata: ${JSON.stringify({ event: 'log', timestamp: '2026-11-22T19:58:00.000Z', message: 'm' })}\n\n`;
const sse = () => new Response(event, { status: 200, headers: { 'content-type': 'text/event-stream' } });

type Stream = AsyncIterableIterator<unknown> & { close(): Promise<void> };
let client: { createClient(options: object): { browsers: { logs: { stream(...args: unknown[]): Stream } } } };
let folder: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'stream-headers-'));
  ({ client } = await scratchClient<typeof client>(document, folder));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const query = { source: 'path', path: '/x' };

describe('a header parameter of an event stream', () => {
  it('is sent on the connection, beside the caller’s own headers', async () => {
    const fetch = scriptedFetch(sse);
    const logs = client.createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch }).browsers.logs;
    const events = logs.stream('br_1', query, { header: { 'X-Trace-Depth': 3 }, headers: { 'X-Caller': 'c' } });
    await events.next();
    await events.close();
    const [request] = fetch.requests;
    expect(request!.headers.get('x-trace-depth')).toBe('3');
    expect(request!.headers.get('x-caller')).toBe('c');
  });

  it('is refused before connecting when the document refuses it', async () => {
    const fetch = scriptedFetch(sse);
    const logs = client.createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch }).browsers.logs;
    expect(() => logs.stream('br_1', query, { header: { 'X-Trace-Depth': 0 } })).toThrow(
      expect.objectContaining({ name: 'ValidationError', field: 'header.X-Trace-Depth' }),
    );
    expect(fetch.requests).toEqual([]);
  });
});
