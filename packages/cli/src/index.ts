/** The `browser-cloud` command-line tool, as a function: `run(argv, io)` resolves to the exit code. */
export { run } from './program.js';
export type { CliIo, OutputStream } from './cli-io.js';
export { EXIT, exitCodeFor } from './exit-codes.js';
