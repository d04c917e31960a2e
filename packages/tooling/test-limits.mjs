// The time limits of every vitest config. A limit in a test only guards against a hang: a test that
// waits on an event that never comes fails after minutes instead of holding `npm test` forever.
// It never measures speed (the benchmarks do, against a named peer in one run): on a busy machine
// (`npm run test:busy`) a test that takes 2 s alone can take 30, and must still pass.
export const HANG_LIMITS = Object.freeze({ testTimeout: 5 * 60_000, hookTimeout: 5 * 60_000 });
