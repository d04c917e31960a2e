// `npm run release` on a temp copy of the repo's layout: document, snapshot, workspaces. What is
// edited is found through the operations model; the versions are computed from the snapshot's.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HTTP_METHODS, loadOpenApiDocument } from '@browser-cloud/openapi-document';
import semver from 'semver';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { releasedSnapshots, versionForBreakingChange } from '../scripts/lib/api-changes.mjs';
import { ReleaseError, release } from '../scripts/lib/release.mjs';
import { workspaceManifests } from '@browser-cloud/tooling/workspaces';
import { placesOf } from './test-support/document-places.js';

type Doc = Record<string, any>;

const [snapshot] = releasedSnapshots(join(import.meta.dirname, 'releases'));
if (!snapshot) throw new Error('openapi/releases holds no snapshot');
const releasedText = readFileSync(snapshot.path, 'utf8');
const breaking = versionForBreakingChange(snapshot.version);
const patch = semver.inc(snapshot.version, 'patch')!;
const places = placesOf(parse(releasedText));
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const manifests = {
  'packages/api-types': { name: '@scope/api-types', version: snapshot.version },
  'packages/client': {
    name: '@scope/client',
    version: snapshot.version,
    dependencies: { '@scope/api-types': `^${snapshot.version}`, 'openapi-fetch': '~0.17.0' },
    devDependencies: { '@scope/sse': '*' },
  },
  'packages/sse': { name: '@scope/sse', version: snapshot.version },
  'apps/sandbox': { name: '@scope/sandbox', private: true, version: snapshot.version },
};

function repoCopy(edit: (doc: Doc, at: typeof places) => void): string {
  const root = mkdtempSync(join(tmpdir(), 'release-'));
  dirs.push(root);
  mkdirSync(join(root, 'openapi/releases'), { recursive: true });
  writeFileSync(join(root, 'openapi/releases', `${snapshot!.version}.yaml`), releasedText);
  const doc = parse(releasedText);
  edit(doc, placesOf(doc));
  writeFileSync(join(root, 'openapi/openapi.yaml'), stringify(doc));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ private: true, workspaces: ['packages/*', 'apps/*'] }));
  for (const [dir, manifest] of Object.entries(manifests)) {
    mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, dir, 'package.json'), JSON.stringify(manifest, null, 2));
  }
  return root;
}

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');
const manifest = (root: string, dir: string) => JSON.parse(read(root, `${dir}/package.json`));
const section = (changelog: string, title: string) => changelog.split(`#### ${title}\n`)[1]?.split('\n#')[0] ?? '';
const describeSchema = (_doc: Doc, at: typeof places) => {
  at.responseProperty().node.description = 'Made up.';
};

describe('npm run release', () => {
  it('releases a breaking change at its bump: snapshot moved, changelog entry by class, versions and ranges set', () => {
    const removed = places.responseProperty();
    const root = repoCopy((doc, at) => {
      doc.info.version = breaking;
      const { node, name } = at.responseProperty();
      delete node.properties[name];
      node.properties.zz_labels = { type: 'array', items: { type: 'string' }, description: 'Made up.' };
      describeSchema(doc, at);
    });
    const result = release({ root, date: '2026-12-01', lockFile: false });

    expect(result).toMatchObject({ released: true, version: breaking });
    expect(existsSync(join(root, `openapi/releases/${snapshot.version}.yaml`))).toBe(false);
    expect(read(root, `openapi/releases/${breaking}.yaml`)).toBe(read(root, 'openapi/openapi.yaml'));

    const changelog = read(root, 'CHANGELOG.md');
    expect(changelog).toMatch(/^# Changelog\n/);
    expect(changelog).toContain(`## ${breaking} (2026-12-01)\n\n### Changes since ${snapshot.version}`);
    expect(section(changelog, 'Breaking for clients')).toContain(
      `- \`${removed.operation}\`: Property \`${removed.name}\``,
    );
    expect(section(changelog, 'Additive')).toContain('Property `zz_labels`');
    expect(section(changelog, 'Documentation')).toContain('`description` of');

    for (const dir of Object.keys(manifests)) expect(manifest(root, dir).version).toBe(breaking);
    expect(manifest(root, 'packages/client').dependencies).toEqual({
      '@scope/api-types': `^${breaking}`,
      'openapi-fetch': '~0.17.0',
    });
    expect(manifest(root, 'packages/client').devDependencies).toEqual({ '@scope/sse': `^${breaking}` });

    // Released: the gate now compares against the new version, and a second run has nothing to do.
    expect(release({ root, lockFile: false })).toMatchObject({ released: false });
  });

  it('writes both parts of a renamed enum value into the changelog, each under its class', () => {
    const renamed = places.responseEnum();
    const old = renamed.node.enum[0];
    const root = repoCopy((doc, at) => {
      doc.info.version = breaking;
      at.responseEnum().node.enum[0] = 'zz_renamed';
    });
    release({ root, date: '2026-12-03', lockFile: false });
    const changelog = read(root, 'CHANGELOG.md');
    expect(section(changelog, 'Breaking for clients')).toContain("gained values: 'zz_renamed'.");
    expect(section(changelog, 'Breaking for servers')).toContain(`lost values: '${old}'.`);
    expect(section(changelog, 'Breaking for clients')).toContain(`\`${renamed.operation}\``);
  });

  it('names an added and a removed operation by method and path in the changelog', () => {
    const { node: item, name: method, operation: removed } = places.operation();
    const added = `${HTTP_METHODS.find((m) => item[m] === undefined)!.toUpperCase()} ${removed.split(' ')[1]}`;
    const root = repoCopy((doc, at) => {
      doc.info.version = breaking;
      const { node } = at.operation();
      node[added.split(' ')[0]!.toLowerCase()] = { ...node[method], operationId: 'zzAddedOperation' };
      delete node[method];
    });
    release({ root, date: '2026-12-04', lockFile: false });
    const changelog = read(root, 'CHANGELOG.md');
    expect(section(changelog, 'Breaking for servers')).toContain(`- \`${added}\`: Operation \`${added}\` added.`);
    expect(section(changelog, 'Breaking for clients')).toContain(`- \`${removed}\`: Operation \`${removed}\``);
  });

  it('puts a new entry above the older ones, under the heading', () => {
    const root = repoCopy((doc, at) => {
      doc.info.version = patch;
      describeSchema(doc, at);
    });
    const older = `## ${snapshot.version} (2026-11-23)\n\nFirst.\n`;
    writeFileSync(join(root, 'CHANGELOG.md'), `# Changelog\n\nIntro.\n\n${older}`);
    release({ root, date: '2026-12-02', lockFile: false });
    const changelog = read(root, 'CHANGELOG.md');
    expect(changelog.indexOf('Intro.')).toBeLessThan(changelog.indexOf(`## ${patch} (2026-12-02)`));
    expect(changelog.indexOf(`## ${patch}`)).toBeLessThan(changelog.indexOf(older));
    // The next release's notes have their heading, above the entry, even where there was none.
    expect(changelog).toContain(`Intro.\n\n## Unreleased\n\n## ${patch} (2026-12-02)`);
    // Released again: the empty section gives no notes and stays one section.
    const next = semver.inc(patch, 'patch')!;
    const document = parse(read(root, 'openapi/openapi.yaml'));
    document.info.version = next;
    placesOf(document).responseProperty().node.description = 'Made up again.';
    writeFileSync(join(root, 'openapi/openapi.yaml'), stringify(document));
    release({ root, date: '2026-12-05', lockFile: false });
    const again = read(root, 'CHANGELOG.md');
    expect(again.match(/^## Unreleased$/gm)).toHaveLength(1);
    expect(again).toContain(`## Unreleased\n\n## ${next} (2026-12-05)\n\n### Changes since ${patch}`);
  });

  it('writes a parameter added beside one written alike (a $ref into a component) as added, not as a rename', () => {
    const existing = places.propertyRefParameter();
    const root = repoCopy((doc, at) => {
      doc.info.version = semver.inc(snapshot.version, 'minor');
      const { node, component, parameters } = at.propertyRefParameter();
      node.description = `${node.description ?? ''} ${'It changed a lot in this edit. '.repeat(8)}`;
      component.properties.zz_tail = { type: 'integer', minimum: 0, description: 'Made up.' };
      const added: Record<string, any> = {
        ...structuredClone(node),
        name: 'zz_tail',
        required: false,
        description: 'Made up.',
      };
      added.schema = { $ref: node.schema.$ref.replace(/[^/]+$/, 'zz_tail') };
      parameters.splice(parameters.indexOf(node) + 1, 0, added);
    });
    release({ root, date: '2026-12-06', lockFile: false });
    const changelog = read(root, 'CHANGELOG.md');
    expect(section(changelog, 'Breaking for servers')).toContain(
      `- \`${existing.operation}\`: Query parameter \`zz_tail\` added (optional).`,
    );
    expect(changelog).not.toMatch(/renamed|narrowed|Breaking for clients/);
  });

  it("keeps the Unreleased section's hand-written notes in the entry, and adds the gate's lines beside them", () => {
    const root = repoCopy((doc, at) => {
      doc.info.version = patch;
      describeSchema(doc, at);
    });
    const notes = 'A schema reworded, as a maintainer wrote it.\n\n### Documentation\n\n- Said by hand.';
    const older = `## ${snapshot.version} (2026-11-23)\n\nFirst.\n`;
    writeFileSync(join(root, 'CHANGELOG.md'), `# Changelog\n\nIntro.\n\n## Unreleased\n\n${notes}\n\n${older}`);
    release({ root, date: '2026-12-02', lockFile: false });
    const changelog = read(root, 'CHANGELOG.md');
    // The notes moved into the entry; a fresh, empty section waits for the next release's.
    expect(changelog.match(/^## Unreleased$/gm)).toHaveLength(1);
    expect(changelog).toContain(`Intro.\n\n## Unreleased\n\n## ${patch} (2026-12-02)`);
    const entry = changelog.slice(changelog.indexOf(`## ${patch} (2026-12-02)`), changelog.indexOf(older));
    expect(entry).toContain(`\n\n${notes}\n\n### Changes since ${snapshot.version}`);
    expect(section(entry, 'Documentation')).toContain('`description` of');
    expect(changelog.indexOf('Intro.')).toBeLessThan(changelog.indexOf(entry));
  });

  it('refuses a breaking change with a patch bump, and changes nothing', () => {
    const root = repoCopy((doc, at) => {
      doc.info.version = patch;
      const { node, name } = at.responseProperty();
      delete node.properties[name];
    });
    expect(() => release({ root, lockFile: false })).toThrow(ReleaseError);
    expect(() => release({ root, lockFile: false })).toThrow(
      `info.version ${patch} is too small for the changes since ${snapshot.version}: they need ${breaking} (breaking for clients`,
    );
    expect(existsSync(join(root, `openapi/releases/${snapshot.version}.yaml`))).toBe(true);
    expect(existsSync(join(root, 'CHANGELOG.md'))).toBe(false);
    expect(manifest(root, 'packages/client').version).toBe(snapshot.version);
  });

  it('refuses changes whose version was not bumped at all, even documentation', () => {
    const root = repoCopy(describeSchema);
    expect(() => release({ root, lockFile: false })).toThrow(
      `must be above the released ${snapshot.version}: bump it in openapi/openapi.yaml; the changes since need ${patch} (documentation: a patch bump).`,
    );
  });

  it('has nothing to release when the document is the released one', () => {
    const root = repoCopy(() => {});
    expect(release({ root, lockFile: false })).toMatchObject({ released: false, version: snapshot.version });
    expect(existsSync(join(root, 'CHANGELOG.md'))).toBe(false);
  });
});

// The rule between an edit and its release (docs/changing-the-api.md, "Versions between an edit and its release"): every package carries
// the last released version, and depends on its siblings at `^` that version; the document's
// info.version (and so DOCUMENT_VERSION) may run ahead of it until `npm run release`, never behind.
describe("the repo's versions", () => {
  const root = join(import.meta.dirname, '..');
  const manifestsOfRepo = workspaceManifests(root).map((path) => JSON.parse(readFileSync(path, 'utf8')));
  const internal = new Set(manifestsOfRepo.map((m) => m.name));

  it('every package has the last released version, and its internal ranges are ^ that version', () => {
    const wrong = manifestsOfRepo.flatMap((m) => [
      ...(m.version === snapshot.version ? [] : [`${m.name}: version ${m.version}`]),
      ...['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap((field) =>
        Object.entries((m[field] ?? {}) as Record<string, string>)
          .filter(([name, range]) => internal.has(name) && range !== `^${snapshot.version}`)
          .map(([name, range]) => `${m.name}: ${field}.${name} ${range}`),
      ),
    ]);
    expect(wrong, `the last release is ${snapshot.version} (openapi/releases/)`).toEqual([]);
    expect(manifestsOfRepo.length).toBeGreaterThanOrEqual(5);
  });

  it("the document's info.version is the last release or ahead of it", () => {
    const { version } = loadOpenApiDocument().info;
    expect(semver.valid(version), `info.version ${version}`).toBe(version);
    expect(semver.gte(version, snapshot.version), `info.version ${version} < released ${snapshot.version}`).toBe(true);
  });
});
