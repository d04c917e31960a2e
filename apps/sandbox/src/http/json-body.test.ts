import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.js';
import { MAX_JSON_DEPTH, nestingBeyond, parseJsonBody } from './json-body.js';

describe('nestingBeyond', () => {
  it('finds the first bracket past the limit and counts objects and arrays alike', () => {
    expect(nestingBeyond('[[1]]', 2)).toBe(-1);
    expect(nestingBeyond('[[[1]]]', 2)).toBe(2);
    expect(nestingBeyond('{"a":{"b":[1]}}', 2)).toBe(10);
    expect(nestingBeyond('[[]][[]]', 2)).toBe(-1);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestingBeyond('["[[[[", "{{{{"]', 1)).toBe(-1);
    expect(nestingBeyond('["a\\"[[[[", 1]', 1)).toBe(-1);
    expect(nestingBeyond('["\\\\", [[1]]]', 1)).toBe(7);
  });

  it('stops at the offending bracket of a body nested millions of levels deep', () => {
    const deep = `${'['.repeat(8_000_000)}${']'.repeat(8_000_000)}`;
    expect(nestingBeyond(deep, MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH);
  });
});

describe('parseJsonBody', () => {
  const fails = (text: string): ApiError => {
    try {
      parseJsonBody(text);
    } catch (error) {
      return error as ApiError;
    }
    throw new Error('expected a failure');
  };

  it('parses JSON, and treats an empty body as none', () => {
    expect(parseJsonBody('{"a":[1]}')).toEqual({ a: [1] });
    expect(parseJsonBody('  ')).toBeUndefined();
  });

  it('refuses nesting beyond the limit with a 400 naming the body and the limit', () => {
    expect(parseJsonBody(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).toBeDefined();
    const error = fails(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.statusCode).toBe(400);
    expect(error.toBody()).toEqual({
      code: 'bad_request',
      message: 'the request body is nested too deeply',
      details: [
        {
          code: 'invalid_input',
          message: `body: nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels (at character ${MAX_JSON_DEPTH})`,
        },
      ],
    });
  });

  it('refuses malformed JSON with a 400 whose detail is bounded', () => {
    const error = fails(`{"a": ${'x'.repeat(100_000)}`);
    expect(error.statusCode).toBe(400);
    expect(error.message).toBe('the request body is not valid JSON');
    expect(JSON.stringify(error.toBody()).length).toBeLessThan(400);
  });
});
