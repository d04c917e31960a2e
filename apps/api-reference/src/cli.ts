#!/usr/bin/env node
// `npm run docs`: writes the offline API reference. Options: --spec <file>, --out <file>.
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildReferencePage } from './build-page.js';
import { DEFAULT_OUT_FILE, DEFAULT_SPEC_PATH } from './default-paths.js';

const { values } = parseArgs({
  options: { spec: { type: 'string' }, out: { type: 'string' } },
  strict: true,
});

try {
  const page = await buildReferencePage({
    specPath: values.spec ?? DEFAULT_SPEC_PATH,
    outFile: values.out ?? DEFAULT_OUT_FILE,
  });
  const size = (page.bytes / 1024 / 1024).toFixed(1);
  console.log(
    `Wrote ${relative(process.cwd(), page.outFile) || page.outFile} (${size} MB, ${page.renderer}, no network needed).`,
  );
  console.log(`Open it: ${pathToFileURL(page.outFile).href}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
