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

  it('counts at the boundaries of each UTF-8 length', () => {
    expect(utf8ByteLength('\u007f')).toBe(1);
    expect(utf8ByteLength('\u0080')).toBe(2);
    expect(utf8ByteLength('\u07ff')).toBe(2);
    expect(utf8ByteLength('\u0800')).toBe(3);
    expect(utf8ByteLength('\uffff')).toBe(3);
    // The first and last high surrogates pair with the first and last low ones.
    expect(utf8ByteLength('\ud800\udc00')).toBe(4);
    expect(utf8ByteLength('\udbff\udfff')).toBe(4);
    // A high surrogate before a non-surrogate, or before another high one, is unpaired.
    expect(utf8ByteLength('\udbff\ue000')).toBe(6);
    expect(utf8ByteLength('\udbff\udbff')).toBe(6);
    expect(utf8ByteLength('\ud7ff\udc00')).toBe(6);
    expect(utf8ByteLength('\udc00\udc00')).toBe(6);
  });

  it('counts only the given range, after an ASCII prefix', () => {
    expect(utf8ByteLength('éé', 1)).toBe(2);
    expect(utf8ByteLength('éé', 0, 1)).toBe(2);
    expect(utf8ByteLength('aé', 0, 2)).toBe(3);
    expect(utf8ByteLength('abc', 1, 2)).toBe(1);
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
