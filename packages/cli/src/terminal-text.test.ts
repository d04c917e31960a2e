import { describe, expect, it } from 'vitest';
import { forTerminal, jsonForTerminal } from './terminal-text.js';

describe('forTerminal', () => {
  it('shows what a terminal would act on as escapes', () => {
    expect(forTerminal('\u001b]0;pwned\u0007title')).toBe('\\u001b]0;pwned\\u0007title');
    expect(forTerminal('a\u001b[2J\u001b[Hb')).toBe('a\\u001b[2J\\u001b[Hb');
    expect(forTerminal('one\r\ntwo')).toBe('one\\r\\ntwo');
    expect(forTerminal('\u009b31m \u007f \u0000 \u202eevil')).toBe('\\u009b31m \\u007f \\u0000 \\u202eevil');
  });

  it('keeps ordinary text, tabs and non-ASCII as they are', () => {
    expect(forTerminal('é 😀\tok [INFO] {"a":1}')).toBe('é 😀\tok [INFO] {"a":1}');
  });

  it('keeps line feeds when asked, and nothing else', () => {
    expect(forTerminal('a\nb\r\u001b', { lines: true })).toBe('a\nb\\r\\u001b');
  });
});

describe('jsonForTerminal', () => {
  it('is the same JSON, with DEL, C1 controls and bidi overrides escaped', () => {
    const value = { message: '\u001b[2J \u009b31m \u007f \u202e \u2028 é 😀\n', id: '1' };
    const text = jsonForTerminal(value);
    expect(text).toBe('{"message":"\\u001b[2J \\u009b31m \\u007f \\u202e \\u2028 é 😀\\n","id":"1"}');
    expect(JSON.parse(text)).toEqual(value);
  });
});
