import { describe, expect, it } from 'vitest';
import { deliveredKey, RecentIds } from './recent-ids.js';

describe('RecentIds', () => {
  it('remembers the last `capacity` distinct ids', () => {
    const ids = new RecentIds(3);
    for (const id of ['a', 'b', 'c']) ids.add(id);
    expect(['a', 'b', 'c'].map((id) => ids.has(id))).toEqual([true, true, true]);
    ids.add('d');
    expect(['a', 'b', 'c', 'd'].map((id) => ids.has(id))).toEqual([false, true, true, true]);
  });

  it('does not count a repeated id twice', () => {
    const ids = new RecentIds(2);
    ids.add('a');
    ids.add('a');
    ids.add('b');
    // Had the repeat taken a second place, adding 'b' would have evicted 'a'.
    expect(ids.has('a')).toBe(true);
    // Nor does adding it again, once full, make it newer: 'a' is still the oldest.
    ids.add('a');
    ids.add('c');
    expect(['a', 'b', 'c'].map((id) => ids.has(id))).toEqual([false, true, true]);
  });

  it('remembers nothing with capacity 0', () => {
    const ids = new RecentIds(0);
    ids.add('a');
    expect(ids.has('a')).toBe(false);
  });
});

describe('deliveredKey', () => {
  it('tells events apart by ID and by data', () => {
    expect(deliveredKey('1', '{"a":1}')).toBe(deliveredKey('1', '{"a":1}'));
    expect(deliveredKey('1', '{"a":1}')).not.toBe(deliveredKey('1', '{"a":2}'));
    expect(deliveredKey('1', 'x')).not.toBe(deliveredKey('2', 'x'));
    expect(deliveredKey('1', '')).not.toBe(deliveredKey('1', ' '));
  });
});
