import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseError } from './errors.js';
import { LineDecoder } from './line-decoder.js';
import { createParser } from './parser.js';
import { bytes, splitAt, utf8 } from './test-support/chunking.js';
import { referenceParse } from './test-support/reference-parser.js';
import type { SseEvent } from './event-parser.js';

interface Outcome {
  events: SseEvent[];
  lastEventId: string;
  error?: string;
}

function run(chunks: readonly Uint8Array[], limits: { maxLineBytes?: number; maxEventBytes?: number } = {}): Outcome {
  const events: SseEvent[] = [];
  const parser = createParser({ ...limits, onEvent: (event) => events.push(event) });
  try {
    for (const chunk of chunks) parser.feed(chunk);
    parser.end();
  } catch (error) {
    // Anything but the package's own typed errors fails the property.
    if (!(error instanceof SseError)) throw error;
    expect(['line-too-long', 'event-too-large']).toContain(error.type);
    return { events, lastEventId: parser.lastEventId, error: error.type };
  }
  return { events, lastEventId: parser.lastEventId };
}

const terminator = fc.constantFrom('\n', '\r', '\r\n');
const value = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.constantFrom('', ' ', '  x', '1', '42', 'a:b', '\0', ' 7', '\uFEFF', 'é€😀'),
);
const line = fc.oneof(
  { weight: 4, arbitrary: value.map((v) => `data:${v}`) },
  { weight: 3, arbitrary: value.map((v) => `data: ${v}`) },
  { weight: 2, arbitrary: value.map((v) => `event: ${v}`) },
  { weight: 2, arbitrary: value.map((v) => `id: ${v}`) },
  { weight: 1, arbitrary: value.map((v) => `retry: ${v}`) },
  { weight: 1, arbitrary: fc.nat({ max: 100000 }).map((n) => `retry: ${n}`) },
  { weight: 1, arbitrary: value.map((v) => `:${v}`) },
  { weight: 3, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('data', 'id', 'event', 'retry', 'Data: x', 'foo: bar', 'data : x') },
  { weight: 1, arbitrary: value },
);
/** Streams shaped like SSE: field lines, mixed terminators, maybe a BOM, maybe an unterminated tail. */
const sseStream = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.tuple(line, terminator), { maxLength: 30 }),
    fc.oneof(fc.constant(''), line),
    fc.option(fc.uint8Array({ minLength: 1, maxLength: 3 }), { nil: undefined }),
  )
  .map(([bom, lines, tail, garbage]) => {
    const text = (bom ? '\uFEFF' : '') + lines.map(([l, t]) => l + t).join('') + tail;
    const encoded = utf8(text);
    if (garbage === undefined) return encoded;
    // Splice invalid/random bytes somewhere in the middle.
    const at = Math.floor(encoded.length / 2);
    return bytes(Array.from(encoded.subarray(0, at)), Array.from(garbage), Array.from(encoded.subarray(at)));
  });
/** Arbitrary bytes, biased toward the bytes that matter to the parser. */
const anyBytes = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 0, max: 255 }) },
      { weight: 2, arbitrary: fc.constantFrom(10, 13, 58, 32, 0xef, 0xbb, 0xbf, 0xc3, 0xa9, 0xf0, 0x9f, 0x80) },
      { weight: 2, arbitrary: fc.constantFrom(...utf8('data:eventidretry')) },
    ),
    { maxLength: 300 },
  )
  .map((list) => Uint8Array.from(list));
const cuts = fc.array(fc.nat({ max: 400 }), { maxLength: 40 });

describe('createParser properties', () => {
  it('matches the spec-literal reference on SSE-shaped streams', () => {
    fc.assert(
      fc.property(sseStream, (input) => {
        const expected = referenceParse(input);
        const actual = run([input]);
        expect(actual.error).toBeUndefined();
        expect(actual.events).toEqual(expected.events);
        expect(actual.lastEventId).toBe(expected.lastEventId);
      }),
      { numRuns: 400 },
    );
  });

  it('matches the spec-literal reference on arbitrary bytes', () => {
    fc.assert(
      fc.property(anyBytes, (input) => {
        const expected = referenceParse(input);
        const actual = run([input]);
        expect(actual.events).toEqual(expected.events);
        expect(actual.lastEventId).toBe(expected.lastEventId);
      }),
      { numRuns: 400 },
    );
  });

  it('any chunking of any stream yields the same events', () => {
    fc.assert(
      fc.property(fc.oneof(sseStream, anyBytes), cuts, (input, points) => {
        expect(run(splitAt(input, points))).toEqual(run([input]));
        const oneByOne = Array.from(input, (_, i) => input.subarray(i, i + 1));
        expect(run(oneByOne)).toEqual(run([input]));
      }),
      { numRuns: 400 },
    );
  });

  it('arbitrary bytes under tight limits raise only typed errors, the same for every chunking', () => {
    fc.assert(
      fc.property(
        fc.oneof(sseStream, anyBytes),
        cuts,
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 80 }),
        (input, points, maxLineBytes, maxEventBytes) => {
          const limits = { maxLineBytes, maxEventBytes };
          const whole = run([input], limits);
          expect(run(splitAt(input, points), limits)).toEqual(whole);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('decodes lines exactly like a streaming TextDecoder, for every split', () => {
    fc.assert(
      fc.property(anyBytes, cuts, (input, points) => {
        const lines: string[] = [];
        const decoder = new LineDecoder({ line: (text, start, end) => lines.push(text.slice(start, end)) });
        for (const chunk of splitAt(input, points)) decoder.push(chunk);
        decoder.end();
        const streaming = new TextDecoder('utf-8'); // strips one leading BOM, like the spec
        let text = '';
        for (const chunk of splitAt(input, points)) text += streaming.decode(chunk, { stream: true });
        text += streaming.decode();
        expect(lines).toEqual(text.split(/\r\n|\r|\n/).slice(0, -1));
      }),
      { numRuns: 400 },
    );
  });

  it('end() discards the unterminated line and block', () => {
    const events: SseEvent[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    parser.feed(utf8('data: a\n\ndata: b\ndata: c'));
    parser.end();
    parser.feed(utf8('\n\n'));
    expect(events.map((e) => e.data)).toEqual(['a']);
  });
});
