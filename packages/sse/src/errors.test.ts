import { describe, expect, it } from 'vitest';
import { isSseError, SseError } from './errors.js';

describe('SseError', () => {
  it('copies only the details that were given, and keeps the cause on Error', () => {
    const cause = new Error('socket hang up');
    const error = new SseError('retries-exhausted', 'Gave up', { attempts: 3, status: undefined, cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('SseError');
    expect(error.message).toBe('Gave up');
    expect(error.type).toBe('retries-exhausted');
    expect(error.attempts).toBe(3);
    expect(error.cause).toBe(cause);
    expect(Object.keys(error).sort()).toEqual(['attempts', 'name', 'type']);
    expect('status' in error).toBe(false);
  });

  it('keeps `value` when it is given as undefined (the validator may reject undefined)', () => {
    expect('value' in new SseError('invalid-data', 'bad', { value: undefined })).toBe(true);
    expect('value' in new SseError('invalid-data', 'bad', {})).toBe(false);
    expect(new SseError('bad-status', 'x', { contentType: null }).contentType).toBeNull();
  });

  it('has no cause when none is given', () => {
    expect('cause' in new SseError('network', 'x')).toBe(false);
  });
});

describe('isSseError', () => {
  it('narrows by type', () => {
    const error = new SseError('bad-status', 'x', { status: 404 });
    expect(isSseError(error)).toBe(true);
    expect(isSseError(error, 'bad-status', 'network')).toBe(true);
    expect(isSseError(error, 'network')).toBe(false);
    expect(isSseError(new Error('x'))).toBe(false);
  });
});
