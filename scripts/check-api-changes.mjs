#!/usr/bin/env node
// The breaking-change gate of `npm run lint`: openapi/openapi.yaml against its last released
// snapshot in openapi/releases/ (kept in the repo, so the check works on a shallow clone).
import { fileURLToPath } from 'node:url';
import { checkApiChanges } from './lib/api-changes.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { ok, text } = checkApiChanges({
  document: 'openapi/openapi.yaml',
  releasesDir: 'openapi/releases',
  cwd: root,
});
console[ok ? 'log' : 'error'](text);
process.exitCode = ok ? 0 : 1;
