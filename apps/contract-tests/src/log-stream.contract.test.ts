import { ValidationError } from '@browser-cloud/client';
import { expect, it } from 'vitest';
import { expectApiError, failure } from './harness/api-errors.js';
import { client, prefer, raw } from './harness/clients.js';
import { documentValidator } from './harness/observed-fetch.js';
import { describeWith, itWith } from './harness/resources.js';
import { MOCK_ONLY_REASON, mockOnly, mockOnlyTitle, target } from './harness/target.js';

const LOG_EVENT = '#/components/schemas/LogEvent';

async function collect<T>(iterable: AsyncIterable<T>, max = 100): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) {
    items.push(item);
    if (items.length >= max) break;
  }
  return items;
}

describeWith(target.resources, ['browserId', 'logPath'], 'streamBrowserLogs', ({ browserId: browser, logPath }) => {
  it('parses the text/event-stream body into typed Log events', async () => {
    const events = await collect(client.browsers.logs.stream(browser, { source: 'path', path: logPath }));
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      expect(documentValidator.validateAt(LOG_EVENT, event)).toEqual([]);
      expect(event.event).toBe('log');
    }
    if (target.mode === 'mock') expect(events).toHaveLength(2);
  });

  itWith(
    target.resources,
    ['supervisorProcess'],
    'streams a supervisor source as typed Log events',
    async ({ supervisorProcess }) => {
      const events = await collect(
        client.browsers.logs.stream(browser, { source: 'supervisor', supervisor_process: supervisorProcess }),
      );
      expect(events.length, 'the supervisor stream delivered no event to check').toBeGreaterThan(0);
      for (const event of events) expect(documentValidator.validateAt(LOG_EVENT, event)).toEqual([]);
    },
  );

  it.each([
    ['path without path', { source: 'path' }],
    ['supervisor without supervisor_process', { source: 'supervisor' }],
    ['a source outside the enum', { source: 'kernel', path: '/x' }],
  ])('refuses %s before the network', async (_what, query) => {
    // Thrown when the stream is asked for or on the first read: either way, before any request.
    const error = await failure(() => collect(client.browsers.logs.stream(browser, query as never)));
    expect(error).toBeInstanceOf(ValidationError);
  });

  it('a wrong source is refused by the server too', async () => {
    const sent = await raw('GET', `/browsers/${browser}/logs/stream?source=kernel&path=%2Fx`, {
      headers: { Accept: 'text/event-stream' },
    });
    expect(sent.status).toBe(400);
  });

  it('source without its matching parameter is refused by the server too', async () => {
    // On the mock, its validating front applies LogStreamQuery's rule, which Prism cannot see.
    const sent = await raw('GET', `/browsers/${browser}/logs/stream?source=supervisor`, {
      headers: { Accept: 'text/event-stream' },
    });
    expect(sent.status).toBe(400);
  });

  it.skipIf(mockOnly).each([400, 401, 403, 404, 500])(
    mockOnlyTitle('answers %i with its error class, code and message'),
    async (status) => {
      await expectApiError(
        () => collect(client.browsers.logs.stream(browser, { source: 'path', path: logPath }, prefer(status))),
        status,
      );
    },
  );
});

if (target.mode === 'mock') {
  console.info(
    '[contract] streamBrowserLogs: cross-parameter rule checked by the client only: Prism cannot enforce it',
  );
}
if (mockOnly) console.info(`[contract] streamBrowserLogs: Prefer-based cases skipped: ${MOCK_ONLY_REASON}`);
