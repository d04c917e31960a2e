import { vi } from 'vitest';

/**
 * Counts the `abort` listeners attached to any AbortSignal (the caller's or one derived from it
 * with `AbortSignal.any`) while it runs: `live()` is how many are attached now, `added()` how many
 * were ever. A listener removed by firing (`once`) is not seen; the tests using this never abort.
 */
export function countAbortListeners(): { live(): number; added(): number; restore(): void } {
  const attached = new Map<AbortSignal, Set<unknown>>();
  const seen = new Set<unknown>();
  const { addEventListener: add, removeEventListener: remove } = AbortSignal.prototype;
  const spies = [
    vi.spyOn(AbortSignal.prototype, 'addEventListener').mockImplementation(function (this: AbortSignal, ...args) {
      if (args[0] === 'abort' && args[1] !== null) {
        attached.set(this, (attached.get(this) ?? new Set()).add(args[1]));
        seen.add(args[1]);
      }
      add.apply(this, args);
    }),
    vi.spyOn(AbortSignal.prototype, 'removeEventListener').mockImplementation(function (this: AbortSignal, ...args) {
      if (args[0] === 'abort') attached.get(this)?.delete(args[1]);
      remove.apply(this, args);
    }),
  ];
  return {
    live: () => [...attached.values()].reduce((sum, set) => sum + set.size, 0),
    added: () => seen.size,
    restore: () => {
      for (const spy of spies) spy.mockRestore();
    },
  };
}
