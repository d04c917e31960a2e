#!/usr/bin/env node
// The breaking-change gate of `npm run lint`: openapi/openapi.yaml against its last released
// snapshot in openapi/releases/ (kept in the repo, so the check works on a shallow clone).
import { fileURLToPath } from 'node:url';
import { OpenApiDocumentError } from '@browser-cloud/openapi-document';
import { checkApiChanges } from './lib/api-changes.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
let result;
try {
  result = checkApiChanges({ document: 'openapi/openapi.yaml', releasesDir: 'openapi/releases', cwd: root });
} catch (error) {
  // A document the loader refuses: its message names the file, the line and the rule.
  if (!(error instanceof OpenApiDocumentError)) throw error;
  result = { ok: false, text: `✖ ${error.message}` };
}
const { ok, text } = result;
console[ok ? 'log' : 'error'](text);
process.exitCode = ok ? 0 : 1;
