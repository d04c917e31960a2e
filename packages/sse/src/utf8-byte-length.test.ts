import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8ByteLength } from './utf8-byte-length.js';

describe('utf8ByteLength', () => {
  it('counts like TextEncoder', () => {
    expect(utf8ByteLength('')).toBe(0);
    expect(utf8ByteLength('a')).toBe(1);
    expect(utf8ByteLength('é')).toBe(2);
    expect(utf8ByteLength('€')).toBe(3);
    expect(utf8ByteLength('😀')).toBe(4);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(utf8ByteLength(text)).toBe(new TextEncoder().encode(text).length);
      }),
    );
  });

  it('counts a range and lone surrogates as U+FFFD', () => {
    expect(utf8ByteLength('ab😀cd', 2, 4)).toBe(4);
    expect(utf8ByteLength('\uD800')).toBe(3);
    expect(utf8ByteLength('\uDC00x')).toBe(4);
    expect(utf8ByteLength('\uD800x')).toBe(4);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }), (units) => {
        const text = String.fromCharCode(...units);
        expect(utf8ByteLength(text)).toBe(new TextEncoder().encode(text).length);
      }),
    );
  });
});
