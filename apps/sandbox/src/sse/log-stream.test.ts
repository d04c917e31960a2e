import { describe, expect, it } from 'vitest';
import { LogSource } from '../state/log-source.js';
import { formatLogEvent } from './log-stream.js';

describe('formatLogEvent', () => {
  it('writes id, event and one data line', () => {
    expect(
      formatLogEvent('mi4x2k0-7', { timestamp: '2026-11-22T19:58:03.120Z', message: 'a\nb\rc' }, JSON.stringify),
    ).toBe(
      'id: mi4x2k0-7\nevent: log\ndata: {"event":"log","timestamp":"2026-11-22T19:58:03.120Z","message":"a\\nb\\rc"}\n\n',
    );
  });
});

describe('LogSource event ids', () => {
  it('are the epoch and the 1-based position', () => {
    const source = new LogSource([], 'mi4x2k0');
    expect(source.eventId(3)).toBe('mi4x2k0-3');
    expect(source.append([{ timestamp: '2026-11-22T19:58:03.120Z', message: 'a' }])).toEqual({
      firstId: 'mi4x2k0-1',
      lastId: 'mi4x2k0-1',
    });
  });

  it('differ between two logs made one after the other (a restart, a reset)', () => {
    const epochs = new Set(Array.from({ length: 20 }, () => new LogSource().epoch));
    expect(epochs.size).toBe(20);
    for (const epoch of epochs) expect(epoch).toMatch(/^[0-9a-z]{1,16}$/);
  });
});

describe('LogSource.resumePosition', () => {
  const source = new LogSource([], 'mi4x2k0');

  it('reads an id of this log', () => {
    expect(source.resumePosition('mi4x2k0-42')).toBe(42);
    expect(source.resumePosition(' mi4x2k0-3 ')).toBe(3);
  });

  it('starts from the beginning for an id of another log (before a restart) and for anything else', () => {
    for (const other of [
      undefined,
      '',
      '42',
      'mi4x2k1-3',
      'mi4x2k0-',
      'mi4x2k0--1',
      'mi4x2k0-1.5',
      `mi4x2k0-${'9'.repeat(30)}`,
    ]) {
      expect(source.resumePosition(other)).toBe(0);
    }
  });
});
