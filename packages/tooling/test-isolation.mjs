// How every vitest config runs its files: in each worker one after another, sharing the worker's
// modules (`isolate: false`), instead of importing them again for each file. Each file starts what
// it needs and restores what it changes in its own hooks (fake timers, stubbed globals, environment
// variables, mocked modules), so no file sees another's state; what is saved is the import of the
// package's modules per file, most of a test run's CPU on 2 cores.
export const SHARED_MODULES = Object.freeze({ isolate: false });
