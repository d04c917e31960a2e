import { describe, expect, it } from 'vitest';
import { LineDecoder } from './line-decoder.js';
import { SseError } from './errors.js';
import { bytes, byteByByte, chunkings, seededRandom, splitAt, utf8 } from './test-support/chunking.js';

/** Runs the decoder over chunks; returns the lines and the error type, if any. */
function decode(chunks: readonly Uint8Array[], maxLineBytes?: number): { lines: string[]; error?: string } {
  const lines: string[] = [];
  const decoder = new LineDecoder({ line: (text, start, end) => lines.push(text.slice(start, end)) }, { maxLineBytes });
  try {
    for (const chunk of chunks) decoder.push(chunk);
    decoder.end();
  } catch (error) {
    if (!(error instanceof SseError)) throw error;
    return { lines, error: error.type };
  }
  return { lines };
}

interface Case {
  readonly name: string;
  readonly input: Uint8Array;
  readonly lines: readonly string[];
  readonly error?: string;
  readonly maxLineBytes?: number;
}

const FFFD = '\uFFFD';

const cases: Case[] = [
  // Line terminators: https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
  { name: 'LF ends lines', input: utf8('a\nb\n'), lines: ['a', 'b'] },
  { name: 'CR ends lines', input: utf8('a\rb\r'), lines: ['a', 'b'] },
  { name: 'CRLF is one terminator', input: utf8('a\r\nb\r\n'), lines: ['a', 'b'] },
  { name: 'mixed terminators', input: utf8('a\nb\rc\r\nd\n\re\r\r\n'), lines: ['a', 'b', 'c', 'd', '', 'e', ''] },
  { name: 'LF CR is two terminators', input: utf8('a\n\rb\n'), lines: ['a', '', 'b'] },
  { name: 'CR CR LF is a CR then a CRLF', input: utf8('a\r\r\nb\n'), lines: ['a', '', 'b'] },
  { name: 'empty lines are kept', input: utf8('\n\n'), lines: ['', ''] },
  { name: 'CR at the very end of the stream ends the line', input: utf8('a\r'), lines: ['a'] },
  { name: 'unterminated final line is discarded', input: utf8('a\nb'), lines: ['a'] },
  { name: 'no terminator at all: no line', input: utf8('data: x'), lines: [] },
  { name: 'empty input', input: utf8(''), lines: [] },
  // BOM: "The UTF-8 decode algorithm strips one leading UTF-8 Byte Order Mark (BOM), if any."
  { name: 'one leading BOM is stripped', input: utf8('\uFEFFa\n'), lines: ['a'] },
  { name: 'only one BOM is stripped', input: utf8('\uFEFF\uFEFFa\n'), lines: ['\uFEFFa'] },
  { name: 'a BOM after the start is content', input: utf8('a\n\uFEFFb\n'), lines: ['a', '\uFEFFb'] },
  { name: 'a BOM alone on the first line', input: utf8('\uFEFF\nb\n'), lines: ['', 'b'] },
  { name: 'partial BOM bytes are invalid UTF-8', input: bytes([0xef, 0xbb], 'a\n'), lines: [`${FFFD}a`] },
  // UTF-8 decoding: https://encoding.spec.whatwg.org/#utf-8-decoder
  { name: 'multi-byte characters', input: utf8('é€😀\n'), lines: ['é€😀'] },
  { name: 'invalid byte becomes U+FFFD', input: bytes([0x61, 0xff, 0x62], '\n'), lines: [`a${FFFD}b`] },
  { name: 'lone continuation byte', input: bytes([0x80], '\n'), lines: [FFFD] },
  { name: 'truncated sequence before LF', input: bytes([0xe2, 0x82], '\nz\n'), lines: [FFFD, 'z'] },
  { name: 'truncated sequence before CR', input: bytes([0xf0, 0x9f, 0x98], '\rz\n'), lines: [FFFD, 'z'] },
  { name: 'overlong encoding', input: bytes([0xc0, 0xaf], '\n'), lines: [FFFD + FFFD] },
  { name: 'encoded surrogate', input: bytes([0xed, 0xa0, 0x80], '\n'), lines: [FFFD + FFFD + FFFD] },
  { name: 'too-large code point', input: bytes([0xf4, 0x90, 0x80, 0x80], '\n'), lines: [FFFD.repeat(4)] },
  { name: 'bad second byte then ASCII', input: bytes([0xe0, 0x80, 0x41], '\n'), lines: [`${FFFD}${FFFD}A`] },
  { name: 'NUL passes through', input: bytes([0x61, 0x00, 0x62], '\n'), lines: ['a\0b'] },
  // Limits, counted in UTF-8 bytes of the line without its terminator.
  { name: 'line at the limit passes', input: utf8('abcd\n'), maxLineBytes: 4, lines: ['abcd'] },
  {
    name: 'line over the limit fails',
    input: utf8('ab\nabcde\n'),
    maxLineBytes: 4,
    lines: ['ab'],
    error: 'line-too-long',
  },
  {
    name: 'limit counts bytes, not characters',
    input: utf8('ééé\n'),
    maxLineBytes: 5,
    lines: [],
    error: 'line-too-long',
  },
  { name: 'multi-byte line at the limit passes', input: utf8('éé\n'), maxLineBytes: 4, lines: ['éé'] },
  { name: 'CRLF does not count toward the limit', input: utf8('abcd\r\n'), maxLineBytes: 4, lines: ['abcd'] },
  { name: 'BOM does not count toward the limit', input: utf8('\uFEFFabcd\n'), maxLineBytes: 4, lines: ['abcd'] },
  {
    name: 'unterminated over-long line fails without its end',
    input: utf8('ok\n0123456789'),
    maxLineBytes: 4,
    lines: ['ok'],
    error: 'line-too-long',
  },
];

describe('LineDecoder conformance', () => {
  for (const chunking of chunkings) {
    describe(chunking.name, () => {
      for (const c of cases) {
        it(c.name, () => {
          const result = decode(chunking.split(c.input), c.maxLineBytes);
          expect(result.lines).toEqual(c.lines);
          expect(result.error).toBe(c.error);
        });
      }
    });
  }

  it('delivers a line as soon as its terminator arrives, at any distance from the end of the chunk', () => {
    // The scan for the last line end steps over the chunk eight bytes at a time: a lone CR or LF
    // at each position of such a step must be seen, or the line waits for a later chunk.
    for (const terminator of ['\r', '\n']) {
      for (let after = 0; after < 20; after++) {
        const lines: string[] = [];
        const decoder = new LineDecoder({ line: (text, start, end) => lines.push(text.slice(start, end)) });
        decoder.push(utf8(`0123456789abcdef${terminator}${'y'.repeat(after)}`));
        expect(lines, `${JSON.stringify(terminator)} then ${after} bytes`).toEqual(['0123456789abcdef']);
      }
    }
  });

  it('discards the held unfinished line at the end', () => {
    const lines: string[] = [];
    const decoder = new LineDecoder({ line: (text, start, end) => lines.push(text.slice(start, end)) });
    decoder.push(utf8('abc'));
    decoder.end();
    decoder.push(utf8('\n'));
    expect(lines).toEqual(['']);
  });

  it('counts each invalid byte as the 3 bytes of its U+FFFD', () => {
    expect(decode([bytes([0xff, 0xff, 0xff], '\n')], 9).lines).toEqual([FFFD.repeat(3)]);
    expect(decode([bytes([0xff, 0xff, 0xff], '\n')], 8).error).toBe('line-too-long');
    expect(decode([bytes([0x61, 0xff, 0xff, 0xff], '\n')], 9).error).toBe('line-too-long');
  });

  it('counts the U+FFFD of invalid bytes in a large chunk too, which is checked for being all ASCII', () => {
    // 2000 bytes, 4000 once decoded: one unit per byte, but not ASCII.
    const line = bytes('x'.repeat(1000), new Array(1000).fill(0xff), '\n');
    expect(decode([line], 3000).error).toBe('line-too-long');
    expect(decode([line], 4000).lines).toEqual([`${'x'.repeat(1000)}${FFFD.repeat(1000)}`]);
    expect(decode([bytes('y'.repeat(1500), '\n')], 1500).lines).toEqual(['y'.repeat(1500)]);
  });

  it('words the limit error with the option name', () => {
    const error = (() => {
      try {
        new LineDecoder({ line: () => {} }, { maxLineBytes: 2 }).push(utf8('abc\n'));
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toMatchObject({ message: 'Line exceeds maxLineBytes (2 bytes)', limit: 2, size: 3 });
  });

  it('skips only the LF of a CRLF split across chunks, not one after an LF', () => {
    expect(decode([utf8('a\rb\n'), utf8('\nc\n')]).lines).toEqual(['a', 'b', '', 'c']);
  });

  it('delivers a long held line as soon as a chunk brings its end, near the start of the chunk', () => {
    const head = `data: ${'x'.repeat(5000)}`;
    for (const tail of ['\r', '\n', 'y\r', 'y\n']) {
      const lines: string[] = [];
      const decoder = new LineDecoder({ line: (text, start, end) => lines.push(text.slice(start, end)) });
      decoder.push(utf8(head));
      decoder.push(bytes(tail, 'é'.repeat(100)));
      expect(lines, JSON.stringify(tail)).toEqual([`${head}${tail.slice(0, -1)}`]);
    }
  });

  it('ends a held line at its first CR or LF in a large chunk, not at another control character', () => {
    const big = 'z'.repeat(2000);
    expect(decode([utf8('ab'), utf8(`c\td\n${big}\n`)]).lines).toEqual(['abc\td', big]);
    expect(decode([utf8('ab'), utf8(`c\rd\r${big}\r`)]).lines).toEqual(['abc', 'd', big]);
    expect(decode([utf8('ab'), utf8(`c\0d\r${big}\n`)]).lines).toEqual(['abc\0d', big]);
  });

  it('never cuts a character when a long held line is decoded in pieces', () => {
    // 64 KiB held bytes are decoded as a piece; the cut must not fall inside these characters.
    for (const [lead, rest, text] of [
      [[0xe2, 0x80], [0x98], '\u2018'],
      [[0xe0, 0xa0], [0x80], '\u0800'],
      [[0xc3], [0xa9], 'é'],
      [[0xf0, 0x9f, 0x98], [0x80], '😀'],
    ] as const) {
      const filler = 'x'.repeat(65_536 - lead.length);
      expect(decode([bytes(filler, lead), bytes(rest, '\n')]).lines).toEqual([`${filler}${text}`]);
    }
  });

  it('keeps a CRLF split across two chunks as one terminator', () => {
    expect(decode([utf8('a\r'), utf8('\nb\n')]).lines).toEqual(['a', 'b']);
    expect(decode([utf8('a\r'), utf8(''), utf8('\nb\n')]).lines).toEqual(['a', 'b']);
    // A CR ending a chunk followed by something else is a lone CR.
    expect(decode([utf8('a\r'), utf8('b\n')]).lines).toEqual(['a', 'b']);
    expect(decode([utf8('a\r'), utf8('\r\n')]).lines).toEqual(['a', '']);
  });

  it('keeps a character split across chunks whole, at every split point', () => {
    const input = utf8('x€😀é\n');
    for (let cut = 1; cut < input.length; cut++) {
      expect(decode(splitAt(input, [cut])).lines).toEqual(['x€😀é']);
    }
    expect(decode(byteByByte.split(input)).lines).toEqual(['x€😀é']);
  });

  it('strips a BOM split across chunks', () => {
    expect(decode([bytes([0xef]), bytes([0xbb]), bytes([0xbf], 'a\n')]).lines).toEqual(['a']);
  });

  it('passes a 1 MiB line with the default limit, and rejects one over 4 MiB', () => {
    const big = 'x'.repeat(1024 * 1024);
    expect(decode([utf8(`${big}\n`)]).lines[0]).toHaveLength(big.length);
    const tooBig = utf8(`${'y'.repeat(4 * 1024 * 1024 + 1)}\n`);
    expect(decode([tooBig]).error).toBe('line-too-long');
  });

  it('reports limit and size on the error', () => {
    const decoder = new LineDecoder({ line: () => {} }, { maxLineBytes: 3 });
    let caught: unknown;
    try {
      decoder.push(utf8('abcdef\n'));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SseError);
    expect(caught).toMatchObject({ type: 'line-too-long', limit: 3, size: 6 });
  });
});

describe('LineDecoder long lines', () => {
  // Long lines take other paths: decoded in 64 KiB pieces, searched by decoding.
  const streamingSplit = (chunks: readonly Uint8Array[]): string[] => {
    const decoder = new TextDecoder('utf-8');
    let text = '';
    for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
    text += decoder.decode();
    return text.split(/\r\n|\r|\n/).slice(0, -1);
  };
  const randomChunks = (input: Uint8Array, seed: number, maxSize: number): Uint8Array[] => {
    const random = seededRandom(seed);
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < input.length; ) {
      const size = 1 + Math.floor(random() * maxSize);
      chunks.push(input.subarray(at, at + size));
      at += size;
    }
    return chunks;
  };
  const mixed = (length: number, seed: number): string => {
    const random = seededRandom(seed);
    const alphabet = ['a', 'b', 'é', '€', '😀', ' ', ':', '\uFFFD', 'z'];
    let text = '';
    while (text.length < length) text += alphabet[Math.floor(random() * alphabet.length)]!;
    return text;
  };

  it('decodes long multi-byte lines like a streaming TextDecoder, whatever the chunk sizes', () => {
    const input = bytes(
      '\uFEFF',
      `data: ${mixed(150_000, 1)}\n`,
      'short\r',
      `${mixed(70_000, 2)}\r\n`,
      [0xff, 0xe2, 0x82],
      `${mixed(90_000, 3)}\r`,
      '\nend\n',
      mixed(5000, 4),
    );
    const expected = streamingSplit([input]);
    expect(expected).toHaveLength(5);
    for (const [seed, maxSize] of [
      [1, 7],
      [2, 1460],
      [3, 5000],
      [4, 70_000],
    ] as const) {
      const chunks = randomChunks(input, seed, maxSize);
      expect(decode(chunks).lines, `seed ${seed}`).toEqual(expected);
    }
    expect(decode([input]).lines).toEqual(expected);
  });

  it('finds a line end far from the end of a chunk inside a long line', () => {
    const head = utf8(`data: ${'x'.repeat(10_000)}`);
    const tail = bytes('é\nnext\n', 'ü'.repeat(3000));
    expect(decode([head, tail, utf8('\n')]).lines).toEqual([`data: ${'x'.repeat(10_000)}é`, 'next', 'ü'.repeat(3000)]);
    const crTail = bytes('\r', 'é'.repeat(3000));
    expect(decode([head, crTail, utf8('\n')]).lines).toEqual([`data: ${'x'.repeat(10_000)}`, 'é'.repeat(3000)]);
  });

  it('enforces the limit on a long line still arriving, and passes one exactly at it', () => {
    const atLimit = utf8(`${'é'.repeat(50_000)}\n`); // 100 000 bytes
    expect(decode(randomChunks(atLimit, 5, 1460), 100_000).lines).toEqual(['é'.repeat(50_000)]);
    const over = utf8(`${'é'.repeat(50_001)}\n`);
    expect(decode(randomChunks(over, 6, 1460), 100_000).error).toBe('line-too-long');
    // Without its end: caught while arriving (a 3-byte allowance for a BOM aside), not only at the end.
    const unfinished = utf8('é'.repeat(60_000));
    const lines: string[] = [];
    const decoder = new LineDecoder({ line: (t, s, e) => lines.push(t.slice(s, e)) }, { maxLineBytes: 100_000 });
    expect(() => {
      for (const chunk of randomChunks(unfinished, 7, 1460)) decoder.push(chunk);
    }).toThrow(expect.objectContaining({ type: 'line-too-long' }));
  });
});

describe('LineDecoder complexity', () => {
  // Quadratic behaviour would take minutes here; linear takes milliseconds. The
  // generous bound only exists so a regression fails instead of hanging CI.
  it('handles an 8 MiB line in 1460-byte chunks in linear time', () => {
    const line = utf8(`data: ${'z'.repeat(8 * 1024 * 1024)}\n`);
    let length = 0;
    const decoder = new LineDecoder(
      { line: (_text, start, end) => (length = end - start) },
      { maxLineBytes: 16 * 1024 * 1024 },
    );
    const started = performance.now();
    for (let at = 0; at < line.length; at += 1460) decoder.push(line.subarray(at, at + 1460));
    expect(length).toBe(line.length - 1);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('handles stray CRs far from any LF in one big chunk in linear time', () => {
    const parts: string[] = [];
    for (let i = 0; i < 64; i++) parts.push(`${'a'.repeat(65536)}\r`);
    const input = utf8(`${parts.join('')}\n`);
    let count = 0;
    const decoder = new LineDecoder({ line: () => count++ });
    const started = performance.now();
    decoder.push(input);
    expect(count).toBe(64);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
