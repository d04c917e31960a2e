import { describe, expect, it } from 'vitest';
import { formatLogEvent, formatRetry, resumePosition } from './format-event.js';

describe('formatLogEvent', () => {
  it('writes id, event and one data line', () => {
    expect(formatLogEvent(7, { timestamp: '2026-11-22T19:58:03.120Z', message: 'a\nb\rc' })).toBe(
      'id: 7\nevent: log\ndata: {"event":"log","timestamp":"2026-11-22T19:58:03.120Z","message":"a\\nb\\rc"}\n\n',
    );
  });
});

describe('formatRetry', () => {
  it('writes whole milliseconds', () => {
    expect(formatRetry(1500.7)).toBe('retry: 1500\n\n');
  });
});

describe('resumePosition', () => {
  it('reads a decimal Last-Event-ID and ignores anything else', () => {
    expect(resumePosition('42')).toBe(42);
    expect(resumePosition(' 3 ')).toBe(3);
    expect(resumePosition(['5', '6'])).toBe(5);
    for (const junk of [undefined, '', '-1', '1.5', 'abc', '1e3', '9'.repeat(30)]) expect(resumePosition(junk)).toBe(0);
  });
});
