import { describe, expect, it } from 'vitest';
import { SseError } from './errors.js';
import { createParser } from './parser.js';
import { EventParser } from './event-parser.js';
import { chunkings, utf8 } from './test-support/chunking.js';
import { referenceParse } from './test-support/reference-parser.js';
import type { SseEvent } from './event-parser.js';

interface Outcome {
  events: SseEvent[];
  lastEventId: string;
  retries: number[];
  comments: string[];
  error?: string;
}

function run(chunks: readonly Uint8Array[], options: { maxEventBytes?: number; lastEventId?: string } = {}): Outcome {
  const outcome: Outcome = { events: [], lastEventId: '', retries: [], comments: [] };
  const parser = createParser({
    ...options,
    onEvent: (event) => outcome.events.push(event),
    onRetry: (ms) => outcome.retries.push(ms),
    onComment: (text) => outcome.comments.push(text),
  });
  try {
    for (const chunk of chunks) parser.feed(chunk);
    parser.end();
  } catch (error) {
    if (!(error instanceof SseError)) throw error;
    outcome.error = error.type;
  }
  outcome.lastEventId = parser.lastEventId;
  return outcome;
}

const ev = (data: string, extra: Partial<SseEvent> = {}): SseEvent => ({ event: 'message', data, id: '', ...extra });

interface Case {
  readonly name: string;
  readonly input: string;
  readonly events: readonly SseEvent[];
  readonly lastEventId?: string;
  readonly retries?: readonly number[];
  readonly comments?: readonly string[];
  readonly error?: string;
  readonly options?: { maxEventBytes?: number; lastEventId?: string };
}

// Every rule of https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
const cases: Case[] = [
  { name: 'a blank line dispatches', input: 'data: a\n\n', events: [ev('a')] },
  { name: 'data lines are joined with LF', input: 'data: a\ndata: b\ndata:c\n\n', events: [ev('a\nb\nc')] },
  { name: 'empty data lines keep their LFs', input: 'data\ndata\n\n', events: [ev('\n')] },
  { name: 'one empty data field gives an event with empty data', input: 'data:\n\n', events: [ev('')] },
  { name: 'a block without data dispatches nothing', input: 'event: x\n\n', events: [] },
  { name: 'event type is "message" by default', input: 'data: a\n\n', events: [ev('a')] },
  { name: 'event field sets the type', input: 'event: log\ndata: a\n\n', events: [ev('a', { event: 'log' })] },
  { name: 'empty event field means "message"', input: 'event: x\nevent:\ndata: a\n\n', events: [ev('a')] },
  {
    name: 'event type is reset after each dispatch',
    input: 'event: log\ndata: a\n\ndata: b\n\n',
    events: [ev('a', { event: 'log' }), ev('b')],
  },
  {
    name: 'event type is reset by a block that dispatches nothing',
    input: 'event: log\n\ndata: b\n\n',
    events: [ev('b')],
  },
  {
    name: 'the last of several event fields wins',
    input: 'event: a\nevent: b\ndata: x\n\n',
    events: [ev('x', { event: 'b' })],
  },
  {
    name: 'the last event ID persists across events',
    input: 'id: 1\ndata: a\n\ndata: b\n\n',
    events: [ev('a', { id: '1' }), ev('b', { id: '1' })],
    lastEventId: '1',
  },
  {
    name: 'a block with no data still sets the last event ID',
    input: 'data: a\n\nid: 7\n\ndata: b\n\n',
    events: [ev('a'), ev('b', { id: '7' })],
    lastEventId: '7',
  },
  { name: 'an id-only stream sets lastEventId', input: 'id: 9\n\n', events: [], lastEventId: '9' },
  {
    name: 'an id containing NULL is ignored',
    input: 'id: 1\ndata: a\n\nid: 2\0x\ndata: b\n\n',
    events: [ev('a', { id: '1' }), ev('b', { id: '1' })],
    lastEventId: '1',
  },
  {
    name: 'an empty id resets the last event ID',
    input: 'id: 1\ndata: a\n\nid\ndata: b\n\nid: 3\n\nid:\ndata: c\n\n',
    events: [ev('a', { id: '1' }), ev('b'), ev('c')],
    lastEventId: '',
  },
  {
    name: 'an id in an unterminated final block is not committed',
    input: 'id: 1\n\nid: 2\ndata: x\n',
    events: [],
    lastEventId: '1',
  },
  {
    name: 'the id may come after the data in the block',
    input: 'data: a\nid: 5\n\n',
    events: [ev('a', { id: '5' })],
    lastEventId: '5',
  },
  {
    name: 'retry with only ASCII digits sets the reconnection time',
    input: 'retry: 1500\ndata: a\n\n',
    events: [ev('a', { retry: 1500 })],
    retries: [1500],
  },
  {
    name: 'retry that is not all ASCII digits is ignored',
    input: 'retry: 15a\nretry: -1\nretry: 1.5\nretry:  10\nretry: ١٢\nretry: 1e3\nretry:\nretry\ndata: a\n\n',
    events: [ev('a')],
    retries: [],
  },
  { name: 'retry alone does not dispatch', input: 'retry: 20\n\n', events: [], retries: [20] },
  { name: 'retry 0 is valid', input: 'retry: 0\ndata: a\n\n', events: [ev('a', { retry: 0 })], retries: [0] },
  {
    name: 'retry is per block on the event',
    input: 'retry: 5\ndata: a\n\ndata: b\n\n',
    events: [ev('a', { retry: 5 }), ev('b')],
    retries: [5],
  },
  {
    name: 'comments are ignored',
    input: ': keep-alive\ndata: a\n:\n: x\n\n',
    events: [ev('a')],
    comments: ['keep-alive', '', 'x'],
  },
  { name: 'a comment-only block dispatches nothing', input: ': ping\n\n', events: [], comments: ['ping'] },
  { name: 'unknown fields are ignored', input: 'foo: bar\ndata: a\nx\n\n', events: [ev('a')] },
  {
    name: 'field names are case-sensitive',
    input: 'Data: a\nDATA: b\nEvent: x\nID: 3\nRetry: 4\ndata: c\n\n',
    events: [ev('c')],
    retries: [],
  },
  { name: 'one leading space after the colon is removed', input: 'data:  a\n\n', events: [ev(' a')] },
  { name: 'no space after the colon is fine', input: 'data:a\n\n', events: [ev('a')] },
  { name: 'a tab after the colon is kept', input: 'data:\ta\n\n', events: [ev('\ta')] },
  { name: 'trailing spaces are kept', input: 'data: a  \n\n', events: [ev('a  ')] },
  { name: 'only the first colon separates', input: 'data: a: b:c\n\n', events: [ev('a: b:c')] },
  { name: 'a line with no colon is a field with empty value', input: 'data\n\n', events: [ev('')] },
  { name: '"event" with no colon resets the type', input: 'event: x\nevent\ndata: a\n\n', events: [ev('a')] },
  { name: 'a field name with a space is unknown', input: 'data : a\ndata: b\n\n', events: [ev('b')] },
  { name: 'an unterminated final block is discarded', input: 'data: a\n\ndata: b\n', events: [ev('a')] },
  { name: 'an unterminated final line is discarded', input: 'data: a\n\ndata: b', events: [ev('a')] },
  { name: 'CR and CRLF line ends work everywhere', input: 'data: a\r\rdata: b\r\n\r\n', events: [ev('a'), ev('b')] },
  { name: 'a BOM before the first field is stripped', input: '\uFEFFdata: a\n\n', events: [ev('a')] },
  {
    name: 'a second BOM makes the first field unknown',
    input: '\uFEFF\uFEFFdata: a\n\ndata: b\n\n',
    events: [ev('b')],
  },
  { name: 'NULL is allowed in data', input: 'data: a\0b\n\n', events: [ev('a\0b')] },
  {
    name: 'the initial last event ID is used until changed',
    input: 'data: a\n\nid: 2\ndata: b\n\n',
    options: { lastEventId: '1' },
    events: [ev('a', { id: '1' }), ev('b', { id: '2' })],
    lastEventId: '2',
  },
  // Spec examples
  {
    name: 'spec example: stock ticker',
    input: 'data: YHOO\ndata: +2\ndata: 10\n\n',
    events: [ev('YHOO\n+2\n10')],
  },
  {
    name: 'spec example: four blocks',
    input: ': test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n',
    events: [ev('first event', { id: '1' }), ev('second event')],
    comments: ['test stream'],
  },
  { name: 'spec example: two events', input: 'data\n\ndata\ndata\n\ndata:', events: [ev(''), ev('\n')] },
  { name: 'spec example: same data twice', input: 'data:test\n\ndata: test\n\n', events: [ev('test'), ev('test')] },
  // Event size limit: UTF-8 bytes of the joined data.
  {
    name: 'event data at the limit passes',
    input: 'data: ab\ndata: c\n\n',
    options: { maxEventBytes: 4 },
    events: [ev('ab\nc')],
  },
  {
    name: 'event data over the limit fails after earlier events',
    input: 'data: ok\n\ndata: ab\ndata: cd\n\n',
    options: { maxEventBytes: 4 },
    events: [ev('ok')],
    error: 'event-too-large',
  },
  {
    name: 'event limit counts UTF-8 bytes',
    input: 'data: ééé\n\n',
    options: { maxEventBytes: 5 },
    events: [],
    error: 'event-too-large',
  },
  {
    name: 'data of separate events does not add up',
    input: 'data: abcd\n\ndata: abcd\n\n',
    options: { maxEventBytes: 4 },
    events: [ev('abcd'), ev('abcd')],
  },
];

describe('event stream interpretation conformance', () => {
  for (const chunking of chunkings) {
    describe(chunking.name, () => {
      for (const c of cases) {
        it(c.name, () => {
          const outcome = run(chunking.split(utf8(c.input)), c.options);
          expect(outcome.events).toEqual(c.events);
          expect(outcome.error).toBe(c.error);
          if (c.lastEventId !== undefined) expect(outcome.lastEventId).toBe(c.lastEventId);
          if (c.retries !== undefined) expect(outcome.retries).toEqual(c.retries);
          if (c.comments !== undefined) expect(outcome.comments).toEqual(c.comments);
        });
      }
    });
  }

  it('the reference oracle agrees with every limit-free case', () => {
    for (const c of cases) {
      if (c.error !== undefined) continue;
      const reference = referenceParse(utf8(c.input), c.options?.lastEventId);
      expect(reference.events, c.name).toEqual(c.events);
      if (c.lastEventId !== undefined) expect(reference.lastEventId, c.name).toBe(c.lastEventId);
    }
  });

  it('omits the retry key on events whose block had none', () => {
    const { events } = run([utf8('data: a\n\n')]);
    expect(Object.keys(events[0]!)).toEqual(['event', 'data', 'id']);
  });

  it('tells whether the block had its own id field', () => {
    const seen: [string, boolean][] = [];
    const parser = new EventParser({ onEvent: (event, hasId) => seen.push([event.id, hasId]) });
    const lines = ['id: 1', 'data: a', '', 'data: b', '', 'id', 'data: c', ''];
    for (const line of lines) parser.line(line, 0, line.length);
    expect(seen).toEqual([
      ['1', true],
      ['1', false],
      ['', true],
    ]);
  });

  it('a huge retry value is kept as a number', () => {
    expect(run([utf8('retry: 99999999999\n\n')]).retries).toEqual([99999999999]);
  });

  it('passes a 1 MiB data line with default limits', () => {
    const data = 'x'.repeat(1024 * 1024);
    expect(run([utf8(`data: ${data}\n\n`)]).events[0]!.data).toHaveLength(data.length);
  });

  it('fails an event over the default 8 MiB made of lines under the line limit', () => {
    const line = `data: ${'x'.repeat(3 * 1024 * 1024)}\n`;
    const outcome = run([utf8(`${line + line + line}\n`)]);
    expect(outcome.error).toBe('event-too-large');
  });

  it('takes near-miss field names for unknown fields, not for data, event or id', () => {
    // One wrong character at each position of the inline `data:`, `event:` and `id:` checks.
    const nearMisses = [
      'xata: 1',
      'dxta: 2',
      'daxa: 3',
      'datx: 4',
      'dataxy: 5',
      'xvent: e1',
      'exent: e2',
      'evxnt: e3',
      'evext: e4',
      'evenx: e5',
      'eventxy: e6',
      'xd: i1',
      'ix: i2',
      'idxy: i3',
    ];
    const input = `${nearMisses.join('\n')}\ndata: kept\n\n`;
    const outcome = run([utf8(input)]);
    expect(outcome.events).toEqual([ev('kept')]);
    expect(outcome.lastEventId).toBe('');
  });

  it('counts an event over several data lines exactly at and one byte over the limit', () => {
    // 6 + 1 + 6 + 1 + 6 = 20 bytes in 14 UTF-16 units: only counting the later lines' bytes sees it.
    const lines = 'data: ééé\ndata: ééé\ndata: ééé\n\n';
    expect(run([utf8(lines)], { maxEventBytes: 20 }).events).toEqual([ev('ééé\nééé\nééé')]);
    expect(run([utf8(lines)], { maxEventBytes: 19 }).error).toBe('event-too-large');
    // ASCII lines: 3 + 1 + 3 + 1 + 3 = 11 bytes.
    const ascii = 'data: abc\ndata: abc\ndata: abc\n\n';
    expect(run([utf8(ascii)], { maxEventBytes: 11 }).events).toEqual([ev('abc\nabc\nabc')]);
    expect(run([utf8(ascii)], { maxEventBytes: 10 }).error).toBe('event-too-large');
  });

  it('reports the limit and the size reached of an event that is too large', () => {
    const parser = createParser({ onEvent: () => {}, maxEventBytes: 7 });
    let error: unknown;
    try {
      parser.feed(utf8('data: éé\ndata: éé\n\n'));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SseError);
    expect(error).toMatchObject({
      type: 'event-too-large',
      limit: 7,
      size: 9,
      message: 'Event data exceeds maxEventBytes (7 bytes)',
    });
  });

  it('starts counting a new event from zero after a failed one is reset', () => {
    const events: SseEvent[] = [];
    const parser = new EventParser({ onEvent: (event) => events.push(event), maxEventBytes: 4 });
    const feed = (line: string): void => parser.line(line, 0, line.length);
    feed('data: abc');
    expect(() => feed('data: de')).toThrow(SseError);
    for (const line of ['data: abcd', '']) feed(line);
    expect(events).toEqual([ev('abcd')]);
  });

  it('reads only the range it is given: what comes before `start` is not part of the field name', () => {
    // Each prefix spells, backwards from `start`, the letters of the field it precedes.
    const cases: Array<[prefix: string, line: string]> = [
      ['ata', 'dxta: 1'],
      ['ata', 'daxa: 2'],
      ['ata', 'datx: 3'],
      [':tnev', 'exent: e1'],
      [':tnev', 'evxnt: e2'],
      [':tnev', 'evext: e3'],
      [':tnev', 'evenx: e4'],
      [':tnev', 'eventx e5'],
      [':d', 'ix: i1'],
      [':d', 'idx i2'],
    ];
    for (const [prefix, line] of cases) {
      const events: SseEvent[] = [];
      const parser = new EventParser({ onEvent: (event) => events.push(event) });
      const text = `${prefix}${line}`;
      parser.line(text, prefix.length, text.length);
      parser.line('data: kept', 0, 10);
      parser.line('', 0, 0);
      expect(events, `${prefix}|${line}`).toEqual([ev('kept')]);
    }
  });

  it('counts every data line of an event once its size needs counting', () => {
    // Single-byte lines: the joining LFs count too (a + LF + a + LF + a = 5 bytes).
    expect(run([utf8('data: a\ndata: a\ndata: a\n\n')], { maxEventBytes: 5 }).events).toEqual([ev('a\na\na')]);
    expect(run([utf8('data: a\ndata: a\ndata: a\n\n')], { maxEventBytes: 4 }).error).toBe('event-too-large');
    // Counting starts on the line that crosses the uncounted size, and includes the lines before it.
    expect(run([utf8('data: ab\ndata: cdefg\n\n')], { maxEventBytes: 8 }).events).toEqual([ev('ab\ncdefg')]);
    expect(run([utf8('data: ab\ndata: cdefg\n\n')], { maxEventBytes: 7 }).error).toBe('event-too-large');
    expect(run([utf8('data: éé\ndata: cdefg\n\n')], { maxEventBytes: 9 }).error).toBe('event-too-large');
  });

  it('counts UTF-8 bytes of lines given without the ASCII hint', () => {
    const parser = new EventParser({ onEvent: () => {}, maxEventBytes: 4 });
    expect(() => parser.line('data: ééé', 0, 9)).toThrow(SseError);
  });

  it('says a first block without an id field has none', () => {
    const seen: boolean[] = [];
    const parser = new EventParser({ onEvent: (_event, hasId) => seen.push(hasId), lastEventId: '7' });
    for (const line of ['data: a', '']) parser.line(line, 0, line.length);
    expect(seen).toEqual([false]);
  });

  it('drops the unterminated block at the end, so a later blank line dispatches nothing', () => {
    const events: SseEvent[] = [];
    const parser = new EventParser({ onEvent: (event) => events.push(event) });
    for (const line of ['id: 1', 'data: a', '', 'id: 2', 'event: x', 'data: b']) parser.line(line, 0, line.length);
    parser.end();
    parser.line('', 0, 0);
    expect(events).toEqual([ev('a', { id: '1' })]);
    expect(parser.lastEventId).toBe('1');
    for (const line of ['data: c', '']) parser.line(line, 0, line.length);
    expect(events[1]).toEqual(ev('c', { id: '1' }));
  });

  it('stays failed after an error', () => {
    const parser = createParser({ onEvent: () => {}, maxLineBytes: 2 });
    expect(() => parser.feed(utf8('abc\n'))).toThrow(SseError);
    expect(() => parser.feed(utf8('a\n'))).toThrow(/maxLineBytes/);
  });
});
