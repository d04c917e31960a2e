#!/usr/bin/env node
// `npm run mock`: a Prism mock of openapi/openapi.yaml on 127.0.0.1:${PORT:-4010}, until
// SIGINT or SIGTERM, which stop Prism too.
import { startPrism } from './lib/prism.mjs';

const port = Number(process.env.PORT ?? 4010);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`PORT must be a TCP port number (1-65535), got "${process.env.PORT}"`);
  process.exit(2);
}

const prism = await startPrism({ port, quiet: false });
console.log(`\nPrism mock of openapi/openapi.yaml listening on ${prism.url} (Ctrl-C to stop)`);
console.log(`  try: curl -s -X POST ${prism.url}/auth/connections/ac_1/login -H 'Authorization: Bearer test' -H 'Content-Type: application/json' -d '{}'`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await prism.stop();
    process.exit(0);
  });
}
const { code, signal } = await prism.exited;
if (!stopping) {
  console.error(`Prism stopped unexpectedly (${signal ?? `exit ${code}`})`);
  process.exit(1);
}
