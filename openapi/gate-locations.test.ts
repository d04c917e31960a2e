// The gate runs `redocly diff` on the loader's JSON rendering of each document; what it reports
// must still point into the YAML a person edits, however that YAML is written.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpenApiDocumentError } from '@browser-cloud/openapi-document';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { checkApiChanges, releasedSnapshots } from '../scripts/lib/api-changes.mjs';
import { placesOf } from './test-support/document-places.js';

const released = releasedSnapshots(join(import.meta.dirname, 'releases'))[0];
if (!released) throw new Error('openapi/releases holds no snapshot');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function layout(documentText: string) {
  const dir = mkdtempSync(join(tmpdir(), 'gate-locations-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'releases'));
  writeFileSync(join(dir, 'releases', `${released!.version}.yaml`), readFileSync(released!.path));
  writeFileSync(join(dir, 'openapi.yaml'), documentText);
  return () => checkApiChanges({ document: 'openapi.yaml', releasesDir: 'releases', cwd: dir });
}

describe('gate locations', () => {
  it('cite the line of the YAML, through an alias, for a change inside a shared object', () => {
    const doc = parse(readFileSync(released.path, 'utf8'));
    // A component schema of a response, found through the operations model.
    const { node } = placesOf(doc).responseProperty();
    const [name] = Object.entries(doc.components.schemas).find(([, schema]) => schema === node)!;
    // One object written once with an anchor and used again by alias.
    const shared = { type: 'string', format: 'date-time', description: 'Made up.' };
    node.properties.zz_synced_at = shared;
    node.properties.zz_synced_again_at = shared;
    const text = stringify(doc);
    expect(text).toMatch(/zz_synced_again_at: \*a1\n/);
    const result = layout(text)();
    const lines = text.split('\n');
    const anchored = lines.findIndex((line) => line.includes('zz_synced_at: &a1')) + 2;
    const aliased = lines.findIndex((line) => line.includes('zz_synced_again_at: *a1')) + 1;
    const located = result.changes?.map((c) => `${c.location?.pointer} ${c.location?.file}:${c.location?.line}`);
    expect(located).toContain(`#/components/schemas/${name}/properties/zz_synced_at openapi.yaml:${anchored}`);
    expect(located).toContain(`#/components/schemas/${name}/properties/zz_synced_again_at openapi.yaml:${aliased}`);
    expect(result.text).toContain(`(openapi.yaml:${aliased})`);
  });

  it('refuse a document the loader refuses, naming the file, the line and the construct', () => {
    const gate = layout(`${readFileSync(released.path, 'utf8')}x-defaults: &d {a: 1}\nx-more:\n  <<: *d\n`);
    expect(gate).toThrow(OpenApiDocumentError);
    expect(gate).toThrow(/openapi\.yaml:\d+:3 the merge key `<<`/);
  });
});
