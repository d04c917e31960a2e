// The edits `npm run test:api-workflow` draws: each applies to the document as it is and to the
// last release, changes only what it says, and the gate accepts it once `info.version` has the
// bump the gate asks for.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { operations, parseOpenApiDocument } from '@browser-cloud/openapi-document';
import { checkApiChanges, nextVersion, releasedSnapshots } from '../scripts/lib/api-changes.mjs';
import {
  applyEdit,
  drawChanges,
  EDIT_KINDS,
  isGeneratedOrDocument,
  seeded,
  withCrudOperations,
  withVersion,
} from '../scripts/lib/api-workflow-changes.mjs';
import { lintFiles, writeDocuments } from './lint/run-redocly.js';

const root = join(import.meta.dirname, '..');
const [released] = releasedSnapshots(join(root, 'openapi/releases'));
if (!released) throw new Error('openapi/releases holds no snapshot');
const dir = mkdtempSync(join(tmpdir(), 'api-workflow-changes-'));
mkdirSync(join(dir, 'openapi/releases'), { recursive: true });
writeFileSync(join(dir, 'openapi/releases', `${released.version}.yaml`), readFileSync(released.path));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// From the released snapshot: `npm run test:api-workflow` runs this test on a document its own
// edits have already changed.
const original = readFileSync(released.path, 'utf8');

function gate(text: string) {
  writeFileSync(join(dir, 'openapi/openapi.yaml'), text);
  return checkApiChanges({ document: 'openapi/openapi.yaml', releasesDir: 'openapi/releases', cwd: dir });
}

describe('each kind of edit', () => {
  it.each(EDIT_KINDS)(
    '%s: changes the document, keeps its other lines, and passes the gate with the bump it asks',
    (kind) => {
      const edited = applyEdit(original, kind, seeded(1));
      if (edited === undefined) throw new Error(`${kind} found no place in the released document`);
      const lines = new Set(edited.text.split('\n'));
      const lost = original.split('\n').filter((line) => !lines.has(line));
      // A removal takes a property and its examples; every other edit only adds or rewrites one line.
      expect(lost.length).toBeLessThanOrEqual(kind === 'remove response property' ? 8 : 1);
      expect(edited.text).not.toBe(original);
      const changes = gate(edited.text).changes ?? [];
      expect(changes.length).toBeGreaterThan(0);
      const bumped = withVersion(edited.text, nextVersion(released.version, changes));
      const result = gate(bumped);
      expect(result.ok, result.text).toBe(true);
      if (kind === 'add operation') {
        const [, method, path] = /^operation (\w+) (\S+)/.exec(edited.done) ?? [];
        expect(changes.map((c) => c.operation)).toContain(`${method} ${path}`);
      }
    },
  );
});

describe('drawChanges', () => {
  it('draws the same edits from the same seed, always an added operation and resource first, distinct kinds', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const first = drawChanges(original, seed, 4);
      expect(drawChanges(original, seed, 4)).toEqual(first);
      expect(first.changes).toHaveLength(4);
      expect(first.changes.slice(0, 2).map((c) => c.kind)).toEqual(['add operation', 'add resource']);
      // What was added, by operationId, in the order the document has them: the workflow calls each.
      const ids = [...operations(parseOpenApiDocument(first.text, 'x.yaml'))].map((o) => o.operationId);
      const before = [...operations(parseOpenApiDocument(original, 'x.yaml'))].map((o) => o.operationId);
      expect(new Set(first.added)).toEqual(new Set(ids.filter((id) => !before.includes(id))));
      expect(new Set(first.changes.map((c) => c.kind)).size).toBe(4);
      expect(parse(first.text).info.version).toBe(parse(original).info.version);
    }
    const kinds = new Set(
      [1, 2, 3, 4, 5, 6, 7, 8].flatMap((seed) => drawChanges(original, seed, 3).changes.map((c) => c.kind)),
    );
    expect(kinds.size).toBeGreaterThan(4);
  });
});

describe('a document an earlier draw changed', () => {
  it('offers every edit again: the workflow test runs these tests on the document its own edits changed', () => {
    // 1359984120 drew a resource whose item requires nothing, which once broke the templates of
    // `add operation`.
    for (const seed of [1359984120, 1, 2, 3, 4, 5]) {
      const { text } = drawChanges(original, seed, 5);
      for (const kind of ['add operation', 'add resource'])
        expect(applyEdit(text, kind, seeded(seed)), `${seed}: ${kind}`).toBeDefined();
      expect(drawChanges(text, seed + 1, 4).changes).toHaveLength(4);
    }
  });
});

describe('add resource: shapes the generators were not written for', { timeout: 120_000 }, () => {
  const SEEDS = Array.from({ length: 24 }, (_, i) => i + 1);
  const drawn = SEEDS.map((seed) => applyEdit(original, 'add resource', seeded(seed))!);

  it('draws, over seeds, every shape the issue names, and the lint accepts each document', async () => {
    const added = drawn.map(({ text }) => {
      const before = new Set([...operations(parseOpenApiDocument(original, 'x.yaml'))].map((o) => o.pointer));
      return [...operations(parseOpenApiDocument(text, 'x.yaml'))].filter((o) => !before.has(o.pointer));
    });
    const all = added.flat();
    const withOriginal = [...all, ...operations(parseOpenApiDocument(original, 'x.yaml'))];
    const schemaOf = (p: { schema?: { schema: unknown } | undefined }) => p.schema?.schema as Record<string, any>;
    const paths = all.flatMap((o) => o.parameters.filter((p) => p.in === 'path'));
    const shapes = {
      'an integer path parameter': paths.some((p) => schemaOf(p)?.type === 'integer'),
      'a path parameter with a dot': paths.some((p) => p.name.includes('.')),
      'a path parameter with a dash': paths.some((p) => p.name.includes('-')),
      'an array in a query': all.some((o) =>
        o.parameters.some((p) => p.in === 'query' && schemaOf(p)?.type === 'array'),
      ),
      'a boolean in a query': all.some((o) =>
        o.parameters.some((p) => p.in === 'query' && schemaOf(p)?.type === 'boolean'),
      ),
      'an integer header parameter': all.some((o) =>
        o.parameters.some((p) => p.in === 'header' && schemaOf(p)?.type === 'integer'),
      ),
      'a query parameter typed by oneOf members': all.some((o) =>
        o.parameters.some((p) => p.in === 'query' && Array.isArray(schemaOf(p)?.oneOf)),
      ),
      'an item composed by allOf': drawn.some(({ text }) => /unevaluatedProperties: false/.test(text)),
      'a property typed by allOf members': drawn.some(({ text }) => /priority:\n\s+allOf:/.test(text)),
      'a nullable property': drawn.some(({ text }) => /type:\n\s+- string\n\s+- "?null"?/.test(text)),
      'an inline array as an answer': all.some((o) => (o.success?.schema?.schema as any)?.type === 'array'),
      // Drawn where the document does not have it already (a release of an earlier draw may: its
      // operationId and its noun's path are then taken).
      'a reserved word as an operationId': withOriginal.some((o) => o.operationId === 'delete'),
      'a path segment with a dot': withOriginal.some((o) => o.path.includes('.')),
      'a path segment with a leading digit': withOriginal.some((o) => /^\/\d/.test(o.path)),
      'two resources at once': drawn.some(({ done }) => done.includes('; resource ')),
      'a nested object in a body': drawn.some(({ text }) => /settings:\n\s+type: object/.test(text)),
      'a component name with a dash or a dot': drawn.some(({ text }) =>
        /\$ref: "#\/components\/schemas\/[^"]*[-.][^"]*"/.test(text),
      ),
    };
    expect(
      Object.entries(shapes)
        .filter(([, seen]) => !seen)
        .map(([shape]) => shape),
    ).toEqual([]);
    const files = writeDocuments({
      original: parse(original),
      ...Object.fromEntries(drawn.map((d, i) => [`drawn-${i}`, parse(d.text)])),
    });
    const results = await lintFiles(Object.values(files));
    const errors = (file: string) =>
      (results.get(file) ?? [])
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.ruleId} ${p.pointer}`)
        .sort();
    for (const [i, { done }] of drawn.entries())
      expect(errors(files[`drawn-${i}`]!), done).toEqual(errors(files.original!));
  });
});

describe('withCrudOperations: the service at its size', { timeout: 120_000 }, () => {
  it('adds N operations, five a resource over N/5 new resources (the last one partly), and the lint accepts it', async () => {
    const count = (text: string) => [...operations(parseOpenApiDocument(text, 'x.yaml'))];
    const before = count(original);
    const resources = (list: ReturnType<typeof count>) => new Set(list.map((o) => o.sdk.resource.join('.')));
    for (const added of [0, 7, 100]) {
      const after = count(withCrudOperations(original, added));
      expect(after).toHaveLength(before.length + added);
      expect(resources(after).size - resources(before).size).toBe(Math.ceil(added / 5));
    }
    // The lint finds in the large document what it finds in the original, no more (in a folder of
    // their own, the problems the repository's ignore file lists are found in both).
    const files = writeDocuments({ original: parse(original), large: parse(withCrudOperations(original, 100)) });
    const results = await lintFiles([files.original!, files.large!]);
    const errors = (file: string) =>
      (results.get(file) ?? [])
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.ruleId} ${p.pointer}`)
        .sort();
    expect(errors(files.large!)).toEqual(errors(files.original!));
    expect(() => withCrudOperations(original, 1000)).toThrow(/^at most \d+ operations$/);
  });
});

describe('what `npm run generate` may change', () => {
  it('the document and the generated folders, nothing else', () => {
    expect(isGeneratedOrDocument('openapi/openapi.yaml')).toBe(true);
    expect(isGeneratedOrDocument('packages/api-types/src/generated/openapi.ts')).toBe(true);
    expect(isGeneratedOrDocument('packages/mcp/src/generated/tools.ts')).toBe(true);
    expect(isGeneratedOrDocument('packages/api-types/src/index.ts')).toBe(false);
    expect(isGeneratedOrDocument('openapi/releases/0.1.0.yaml')).toBe(false);
    expect(isGeneratedOrDocument('apps/sandbox/src/fixture/default-fixture.ts')).toBe(false);
  });
});
