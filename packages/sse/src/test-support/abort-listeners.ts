import { vi } from 'vitest';

/**
 * Counts the `abort` listeners attached to any AbortSignal (the caller's or one the code derives
 * from it with `AbortSignal.any`) while it runs: `live()` is how many are attached now. A listener
 * removed by firing (`once`) is not seen; the tests using this never abort.
 */
export function countAbortListeners(): { live(): number; added(): number; restore(): void } {
  const attached = new Map<AbortSignal, Set<unknown>>();
  let added = 0;
  const add = AbortSignal.prototype.addEventListener;
  const remove = AbortSignal.prototype.removeEventListener;
  const addSpy = vi.spyOn(AbortSignal.prototype, 'addEventListener').mockImplementation(function (
    this: AbortSignal,
    ...args: Parameters<AbortSignal['addEventListener']>
  ) {
    if (args[0] === 'abort' && args[1] !== null) {
      const set = attached.get(this) ?? new Set();
      if (!set.has(args[1])) added++;
      set.add(args[1]);
      attached.set(this, set);
    }
    add.apply(this, args);
  });
  const removeSpy = vi.spyOn(AbortSignal.prototype, 'removeEventListener').mockImplementation(function (
    this: AbortSignal,
    ...args: Parameters<AbortSignal['removeEventListener']>
  ) {
    if (args[0] === 'abort') attached.get(this)?.delete(args[1]);
    remove.apply(this, args);
  });
  return {
    live: () => [...attached.values()].reduce((sum, set) => sum + set.size, 0),
    added: () => added,
    restore: () => {
      addSpy.mockRestore();
      removeSpy.mockRestore();
    },
  };
}
