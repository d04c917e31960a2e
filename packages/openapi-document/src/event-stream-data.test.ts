import { describe, expect, it } from 'vitest';
import { eventStreamData } from './event-stream-data.js';

describe('eventStreamData', () => {
  it('gives the data of each complete event, multi-line data joined by LF', () => {
    expect(eventStreamData('id: 1\nevent: log\ndata: {"a":1}\n\n: keep-alive\n\ndata: x\ndata:y\n\n')).toEqual([
      '{"a":1}',
      'x\ny',
    ]);
  });

  it('accepts CRLF and CR line ends', () => {
    expect(eventStreamData('data: a\r\n\r\ndata: b\r\r')).toEqual(['a', 'b']);
  });

  it('drops an unterminated last block and events without data', () => {
    expect(eventStreamData('data: a\n\nid: 2\n\ndata: partial')).toEqual(['a']);
    expect(eventStreamData('')).toEqual([]);
  });
});
