import { describe, expect, it } from 'vitest';
import { classifyResponse, isEventStreamType } from './response-policy.js';

const headers = (entries: Record<string, string>): Headers => new Headers(entries);
const sse = headers({ 'content-type': 'text/event-stream' });

describe('classifyResponse', () => {
  it('opens 200 text/event-stream', () => {
    expect(classifyResponse(200, sse)).toEqual({ kind: 'open' });
  });

  it('fails 200 with another or no content type', () => {
    expect(classifyResponse(200, headers({ 'content-type': 'application/json' }))).toEqual({
      kind: 'fail',
      type: 'bad-content-type',
    });
    expect(classifyResponse(200, headers({}))).toEqual({ kind: 'fail', type: 'bad-content-type' });
  });

  it('ends on 204', () => {
    expect(classifyResponse(204, headers({}))).toEqual({ kind: 'end' });
  });

  it('retries 408, 429 and 5xx, reading Retry-After', () => {
    for (const status of [408, 429, 500, 502, 503, 504, 599]) {
      expect(classifyResponse(status, headers({}))).toEqual({ kind: 'retry', retryAfter: undefined });
    }
    expect(classifyResponse(503, headers({ 'retry-after': '2' }))).toEqual({ kind: 'retry', retryAfter: 2000 });
  });

  it('fails other statuses for good', () => {
    for (const status of [201, 206, 301, 304, 400, 401, 403, 404, 410, 418]) {
      expect(classifyResponse(status, sse)).toEqual({ kind: 'fail', type: 'bad-status' });
    }
  });
});

describe('isEventStreamType', () => {
  it('compares the media type case-insensitively and ignores parameters', () => {
    expect(isEventStreamType('text/event-stream')).toBe(true);
    expect(isEventStreamType('Text/Event-Stream')).toBe(true);
    expect(isEventStreamType('text/event-stream; charset=utf-8')).toBe(true);
    expect(isEventStreamType(' text/event-stream ;x=y')).toBe(true);
  });

  it('rejects anything else', () => {
    expect(isEventStreamType(null)).toBe(false);
    expect(isEventStreamType('')).toBe(false);
    expect(isEventStreamType('text/plain')).toBe(false);
    expect(isEventStreamType('text/event-streams')).toBe(false);
    expect(isEventStreamType('application/text/event-stream')).toBe(false);
  });
});
