#!/usr/bin/env node
// `npm run mock`: a Prism mock of openapi/openapi.yaml on 127.0.0.1:${PORT:-4010}, until
// SIGINT or SIGTERM, which stop Prism too.
import { startPrism } from './lib/prism.mjs';

const port = Number(process.env.PORT ?? 4010);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`PORT must be a TCP port number (1-65535), got "${process.env.PORT}"`);
  process.exit(2);
}

// Handlers come first: a signal that arrives while Prism starts must still stop it.
let prism;
let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  if (!prism) return; // the start below sees `stopping` and finishes the job
  await prism.stop();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

prism = await startPrism({ port, quiet: false });
if (stopping) {
  await prism.stop();
  process.exit(0);
}
console.log(`\nPrism mock of openapi/openapi.yaml listening on ${prism.url} (Ctrl-C to stop)`);
console.log(
  `  try: curl -s -X POST ${prism.url}/auth/connections/ac_1/login -H 'Authorization: Bearer test' -H 'Content-Type: application/json' -d '{}'`,
);

const { code, signal } = await prism.exited;
if (!stopping) {
  console.error(`Prism stopped unexpectedly (${signal ?? `exit ${code}`})`);
  process.exit(1);
}
