#!/usr/bin/env node
// `npm run release`: releases the version in openapi/openapi.yaml's `info.version` (see
// scripts/lib/release.mjs). `--date YYYY-MM-DD` dates the changelog entry (default: today, UTC).
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ReleaseError, release } from './lib/release.mjs';

const { values } = parseArgs({ options: { date: { type: 'string' } } });
if (values.date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(values.date)) {
  console.error(`--date must be YYYY-MM-DD, got "${values.date}".`);
  process.exit(2);
}
try {
  const { text } = release({
    root: fileURLToPath(new URL('..', import.meta.url)),
    ...(values.date && { date: values.date }),
  });
  console.log(text);
} catch (error) {
  if (!(error instanceof ReleaseError)) throw error;
  console.error(`✖ ${error.message}`);
  process.exitCode = 1;
}
