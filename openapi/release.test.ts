// `npm run release` on a temp copy of the repo's layout: document, snapshot, workspaces.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { releasedSnapshots } from '../scripts/lib/api-changes.mjs';
import { ReleaseError, release, workspaceManifests } from '../scripts/lib/release.mjs';
import semver from 'semver';
import { loadOpenApiDocument } from '@browser-cloud/openapi-document';

type Doc = Record<string, any>;

const [snapshot] = releasedSnapshots(join(import.meta.dirname, 'releases'));
if (!snapshot) throw new Error('openapi/releases holds no snapshot');
const releasedText = readFileSync(snapshot.path, 'utf8');
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

function repoCopy(edit: (doc: Doc) => void): string {
  const root = mkdtempSync(join(tmpdir(), 'release-'));
  dirs.push(root);
  mkdirSync(join(root, 'openapi/releases'), { recursive: true });
  writeFileSync(join(root, 'openapi/releases', `${snapshot!.version}.yaml`), releasedText);
  const doc = parse(releasedText);
  edit(doc);
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

describe('npm run release', { timeout: 180_000 }, () => {
  it('releases a breaking change at 0.2.0: snapshot moved, changelog entry by class, versions and ranges set', () => {
    const root = repoCopy((doc) => {
      doc.info.version = '0.2.0';
      delete doc.components.schemas.Profile.properties.last_used_at;
      doc.components.schemas.Profile.properties.labels = {
        type: 'array',
        items: { type: 'string' },
        description: 'Labels.',
      };
      doc.components.schemas.Profile.description = 'A browser profile.';
    });
    const result = release({ root, date: '2026-12-01', lockFile: false });

    expect(result).toMatchObject({ released: true, version: '0.2.0' });
    expect(existsSync(join(root, `openapi/releases/${snapshot.version}.yaml`))).toBe(false);
    expect(read(root, 'openapi/releases/0.2.0.yaml')).toBe(read(root, 'openapi/openapi.yaml'));

    const changelog = read(root, 'CHANGELOG.md');
    expect(changelog).toMatch(/^# Changelog\n/);
    expect(changelog).toContain('## 0.2.0 (2026-12-01)');
    const section = (title: string) => changelog.split(`### ${title}\n`)[1]?.split('\n###')[0] ?? '';
    expect(section('Breaking for clients')).toContain('Property `last_used_at` of `Profile` was removed');
    expect(section('Breaking for clients')).toContain('`PATCH /profiles/{id_or_name}`');
    expect(section('Additive')).toContain('labels');
    expect(section('Documentation')).toContain('description');

    for (const dir of Object.keys(manifests)) expect(manifest(root, dir).version).toBe('0.2.0');
    expect(manifest(root, 'packages/client').dependencies).toEqual({
      '@scope/api-types': '^0.2.0',
      'openapi-fetch': '~0.17.0',
    });
    expect(manifest(root, 'packages/client').devDependencies).toEqual({ '@scope/sse': '^0.2.0' });

    // Released: the gate now compares against 0.2.0, and a second run has nothing to do.
    expect(release({ root, lockFile: false })).toMatchObject({ released: false });
  });

  it('writes both parts of a renamed enum value into the changelog, each under its class', () => {
    const root = repoCopy((doc) => {
      doc.info.version = '0.2.0';
      const flowType = doc.components.schemas.LoginResponse.properties.flow_type;
      flowType.enum = flowType.enum.map((v: string) => (v === 'REAUTH' ? 'RE_AUTH' : v));
    });
    release({ root, date: '2026-12-03', lockFile: false });
    const changelog = read(root, 'CHANGELOG.md');
    const section = (title: string) => changelog.split(`### ${title}\n`)[1]?.split('\n###')[0] ?? '';
    expect(section('Breaking for clients')).toContain("Enum of `flow_type` gained values: 'RE_AUTH'.");
    expect(section('Breaking for servers')).toContain("Enum of `flow_type` lost values: 'REAUTH'.");
    expect(section('Breaking for clients')).toContain('`POST /auth/connections/{id}/login`');
  });

  it('puts a new entry above the older ones, under the heading', () => {
    const root = repoCopy((doc) => {
      doc.info.version = '0.1.1';
      doc.components.schemas.Profile.description = 'A browser profile.';
    });
    writeFileSync(join(root, 'CHANGELOG.md'), '# Changelog\n\nIntro.\n\n## 0.1.0 (2026-11-23)\n\nFirst.\n');
    release({ root, date: '2026-12-02', lockFile: false });
    const changelog = read(root, 'CHANGELOG.md');
    expect(changelog.indexOf('Intro.')).toBeLessThan(changelog.indexOf('## 0.1.1 (2026-12-02)'));
    expect(changelog.indexOf('## 0.1.1')).toBeLessThan(changelog.indexOf('## 0.1.0'));
  });

  it('replaces the Unreleased section with the release entry', () => {
    const root = repoCopy((doc) => {
      doc.info.version = '0.1.1';
      doc.components.schemas.Profile.description = 'A browser profile.';
    });
    writeFileSync(
      join(root, 'CHANGELOG.md'),
      '# Changelog\n\nIntro.\n\n## Unreleased\n\n### Documentation\n\n- Profile reworded.\n\n## 0.1.0 (2026-11-23)\n\nFirst.\n',
    );
    release({ root, date: '2026-12-02', lockFile: false });
    const changelog = read(root, 'CHANGELOG.md');
    expect(changelog).not.toContain('Unreleased');
    expect(changelog).not.toContain('Profile reworded.');
    expect(changelog.indexOf('Intro.')).toBeLessThan(changelog.indexOf('## 0.1.1 (2026-12-02)'));
    expect(changelog.indexOf('## 0.1.1')).toBeLessThan(changelog.indexOf('## 0.1.0 (2026-11-23)\n\nFirst.'));
  });

  it('refuses a breaking change with a patch bump, and changes nothing', () => {
    const root = repoCopy((doc) => {
      doc.info.version = '0.1.1';
      delete doc.components.schemas.Profile.properties.last_used_at;
    });
    expect(() => release({ root, lockFile: false })).toThrow(ReleaseError);
    expect(() => release({ root, lockFile: false })).toThrow(/0\.1\.1 is too small .*minor bump \(0\.2\.0\)/);
    expect(existsSync(join(root, `openapi/releases/${snapshot.version}.yaml`))).toBe(true);
    expect(existsSync(join(root, 'CHANGELOG.md'))).toBe(false);
    expect(manifest(root, 'packages/client').version).toBe(snapshot.version);
  });

  it('refuses changes whose version was not bumped at all, even documentation', () => {
    const root = repoCopy((doc) => {
      doc.components.schemas.Profile.description = 'A browser profile.';
    });
    expect(() => release({ root, lockFile: false })).toThrow(/must be above the released .*patch bump/);
  });

  it('has nothing to release when the document is the released one', () => {
    const root = repoCopy(() => {});
    expect(release({ root, lockFile: false })).toMatchObject({ released: false, version: snapshot.version });
    expect(existsSync(join(root, 'CHANGELOG.md'))).toBe(false);
  });
});

// The rule between an edit and its release (README, "Changing the API"): every package carries
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
