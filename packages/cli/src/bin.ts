#!/usr/bin/env node
import { run } from './program.js';

// Ctrl-C (or SIGTERM) aborts what runs, which then ends cleanly; a second one ends at once.
const interrupt = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupt.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
    interrupt.abort(signal);
  });
}
// A closed pipe (`| head`) is the reader's choice, not a failure to report.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  interrupt: interrupt.signal,
});
