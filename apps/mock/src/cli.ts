#!/usr/bin/env node
// `npm run mock`: the mock on 127.0.0.1:${PORT:-4010} until SIGINT or SIGTERM, which stop Prism
// too. A start-up failure is one line on stderr and exit code 1; a bad PORT or argument, code 2.
import { MockStartError } from './mock-start-error.js';
import { type MockServer, startMock } from './start-mock.js';

const USAGE = `Usage: npm run mock   (or: browser-cloud-mock)

Serves openapi/openapi.yaml with Prism behind a validating front on 127.0.0.1:$PORT (default 4010;
0 = a free port the system picks, printed when it listens).
Environment: PORT, PRISM_BIN (another Prism CLI script). SIGINT or SIGTERM stops both.`;

// It takes no arguments: --help prints the usage, anything else is refused rather than ignored.
const [argument] = process.argv.slice(2);
if (argument === '--help' || argument === '-h') {
  console.log(USAGE);
  process.exit(0);
}
if (argument !== undefined) {
  console.error(`mock: unknown argument "${argument}" (the port is set by PORT)\n\n${USAGE}`);
  process.exit(2);
}

const port = Number(process.env['PORT'] ?? 4010);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a TCP port number (1-65535, or 0 for a free one), got "${process.env['PORT']}"`);
  process.exit(2);
}

// Handlers come first: a signal that arrives while Prism starts must still stop it.
let mock: MockServer | undefined;
let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  if (!mock) return; // the start below sees `stopping` and finishes the job
  await mock.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

try {
  mock = await startMock({
    port,
    prismBin: process.env['PRISM_BIN'] || undefined,
    // The port is open from here on (with PORT=0 this is where it shows): a request waits for Prism.
    onFrontListening: (url) => console.log(`Mock front bound to ${url}; starting Prism…`),
  });
} catch (error) {
  console.error(error instanceof MockStartError ? `mock: ${error.message}` : `mock: could not start: ${String(error)}`);
  process.exit(1);
}
if (stopping) {
  await mock.close();
  process.exit(0);
}
console.log(`Mock of openapi/openapi.yaml listening on ${mock.url} (Ctrl-C to stop)`);
console.log(`  Prism answers behind a validating front; Prism alone, without the front's checks: ${mock.prismUrl}`);
console.log(
  `  try: curl -s -X POST ${mock.url}/auth/connections/ac_1/login -H 'Authorization: Bearer test' -H 'Content-Type: application/json' -d '{}'`,
);

const { code, signal } = await mock.exited;
if (!stopping) {
  console.error(`mock: Prism stopped unexpectedly (${signal ?? `exit ${code}`})`);
  await mock.close();
  process.exit(1);
}
