// The changes `npm run test:api-workflow` makes to the document: each edits only what it names,
// keeps the rest of the file as written, and the gate classifies it as the README says. They are
// tried on the last release, which the gate compares with.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkApiChanges, releasedSnapshots } from '../scripts/lib/api-changes.mjs';
import { API_WORKFLOW_CHANGES, isGeneratedOrDocument } from '../scripts/lib/api-workflow-changes.mjs';

const root = join(import.meta.dirname, '..');
const [released] = releasedSnapshots(join(root, 'openapi/releases'));
if (!released) throw new Error('openapi/releases holds no snapshot');
const dir = mkdtempSync(join(tmpdir(), 'api-workflow-changes-'));
mkdirSync(join(dir, 'openapi/releases'), { recursive: true });
writeFileSync(join(dir, 'openapi/releases', `${released.version}.yaml`), readFileSync(released.path));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const byName = new Map(API_WORKFLOW_CHANGES.map((change) => [change.name, change]));
// From the released snapshot, not the document: `npm run test:api-workflow` runs this test on a
// document these changes have already made.
const original = readFileSync(released.path, 'utf8');
/** The document after the named changes, in order, as the workflow script makes them. */
const edited = (...names: string[]) =>
  names.reduce((text, name) => byName.get(name)!.edit(text, { root: dir }), original);

function gate(text: string) {
  writeFileSync(join(dir, 'openapi/openapi.yaml'), text);
  return checkApiChanges({ document: 'openapi/openapi.yaml', releasesDir: 'openapi/releases', cwd: dir });
}
const summary = (result: ReturnType<typeof gate>) =>
  (result.changes ?? []).map((c) => `${c.changeClass} ${c.message.split(' (')[0]}`);

describe('the API workflow changes', { timeout: 120_000 }, () => {
  it('are the four of the README, in the order the script makes them', () => {
    expect([...byName.keys()]).toEqual(['wording', 'additive', 'breaking', 'enum rename']);
  });

  it('keep every line they do not mean to change', () => {
    const lines = (text: string) => new Set(text.split('\n'));
    const kept = lines(edited('wording', 'additive'));
    const lost = [...lines(original)].filter((line) => !kept.has(line));
    // The two reworded lines, nothing else.
    expect(lost).toHaveLength(2);
  });

  it('a wording change is documentation, and passes the gate with no bump', () => {
    const result = gate(edited('wording'));
    expect(result.ok).toBe(true);
    expect(new Set(result.changes?.map((c) => c.changeClass))).toEqual(new Set(['documentation']));
  });

  it('the optional properties are additive, and pass with no bump', () => {
    const text = edited('additive');
    const added = onlyIn(parse(text), parse(original));
    expect(added.length).toBeGreaterThan(0);
    expect(parse(text).info.version).toBe(parse(original).info.version);
    const result = gate(text);
    expect(result.ok).toBe(true);
    expect(summary(result)).toHaveLength(added.length);
    expect(summary(result)).toEqual(
      expect.arrayContaining(
        added.map((name) => expect.stringMatching(new RegExp(`^additive Property \`${name}\` of .* added\\.$`))),
      ),
    );
  });

  it('the removal takes the property and its examples, bumps the version, and passes', () => {
    const text = edited('breaking');
    const [removed, ...others] = new Set(onlyIn(parse(original), parse(text)));
    expect(others).toEqual([]);
    expect(text).not.toContain(removed);
    const result = gate(text);
    expect(result.ok).toBe(true);
    expect(summary(result)).toEqual([
      expect.stringMatching(new RegExp(`^breaking-clients Property \`${removed}\` .*removed\\.$`)),
    ]);
  });

  it('the enum rename is listed as a value lost and a value gained, and passes with its bump', () => {
    const text = edited('enum rename');
    const [lost] = onlyIn(parse(original), parse(text));
    const [gained] = onlyIn(parse(text), parse(original));
    expect(text).not.toMatch(new RegExp(`\\b${lost}\\b`));
    const result = gate(text);
    expect(result.ok).toBe(true);
    expect(summary(result)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^breaking-clients Enum of .* gained values: '${gained}'\\.$`)),
        expect.stringMatching(new RegExp(`^breaking-servers Enum of .* lost values: '${lost}'\\.$`)),
      ]),
    );
  });
});

/** The keys of `a`'s objects, and the values of its arrays, that `b` lacks at the same place. */
function onlyIn(a: unknown, b: unknown): string[] {
  if (Array.isArray(a) && Array.isArray(b)) return a.filter((v) => typeof v !== 'object' && !b.includes(v));
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return [];
  return Object.entries(a).flatMap(([key, value]) =>
    key in b ? onlyIn(value, (b as Record<string, unknown>)[key]) : [key],
  );
}

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
