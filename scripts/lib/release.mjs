// The release step: the document's version becomes a release. It moves the released snapshot,
// writes the changelog entry from the classified diff, and gives every workspace package the
// document's version (internal dependency ranges follow), so that a published package says
// which document it was built from (as its DOCUMENT_VERSION constant does).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import semver from 'semver';
import { bumpReasons, byClass, changesSinceRelease, formatChange, nextVersion } from './api-changes.mjs';
import { workspaceManifests } from '@browser-cloud/tooling/workspaces';

const DOCUMENT = 'openapi/openapi.yaml';
const RELEASES = 'openapi/releases';
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];
const CHANGELOG_HEAD = `# Changelog

Releases of the Browser Cloud API document (\`openapi/openapi.yaml\`) and of the packages built from it,
which carry the document's version. \`npm run release\` writes each entry: the notes written by hand
under \`## Unreleased\`, then the changes since the previous release, classified from \`redocly diff\`.
`;

export class ReleaseError extends Error {
  name = 'ReleaseError';
}

function setPackageVersions(root, version) {
  const manifests = workspaceManifests(root).map((path) => ({ path, json: JSON.parse(readFileSync(path, 'utf8')) }));
  const names = new Set(manifests.map(({ json }) => json.name));
  for (const { path, json } of manifests) {
    json.version = version;
    for (const field of DEPENDENCY_FIELDS) {
      for (const name of Object.keys(json[field] ?? {})) {
        if (names.has(name)) json[field][name] = `^${version}`;
      }
    }
    writeFileSync(path, `${JSON.stringify(json, null, 2)}\n`);
  }
  return [...names];
}

/**
 * The changelog entry of a release: the hand-written notes (the `## Unreleased` section's
 * text), then the changes since `previous` by class, as the gate lists them.
 */
function changelogEntry({ version, previous, date, changes, notes = '' }) {
  const lines = [`## ${version} (${date})`, ''];
  if (notes.trim() !== '') lines.push(notes.trim(), '');
  lines.push(`### Changes since ${previous} (from \`redocly diff\`)`);
  for (const { title, changes: ofClass } of byClass(changes)) {
    const heading = `#### ${title[0].toUpperCase()}${title.slice(1)}`;
    lines.push('', heading, '', ...ofClass.map((c) => formatChange(c, { markdown: true })));
  }
  if (changes.length === 0) lines.push('', 'No change to the contract.');
  return `${lines.join('\n')}\n`;
}

const UNRELEASED = /^## Unreleased\b[^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m;

/** The section the notes of the next release are written under, empty after each release. */
const FRESH_UNRELEASED = '## Unreleased\n\n';

/**
 * Puts the release's entry above the older ones. The notes of an `## Unreleased` section,
 * written by hand between releases, move into the entry, beside the gate's lines; a fresh, empty
 * `## Unreleased` section above the entry waits for the next release's notes.
 */
function updateChangelog(root, entryOf) {
  const path = join(root, 'CHANGELOG.md');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : CHANGELOG_HEAD;
  const entry = entryOf(text.match(UNRELEASED)?.[1] ?? '');
  const current = text.replace(UNRELEASED, '');
  const firstEntry = current.search(/^## /m);
  const next =
    firstEntry === -1
      ? `${current.trimEnd()}\n\n${FRESH_UNRELEASED}${entry}`
      : `${current.slice(0, firstEntry)}${FRESH_UNRELEASED}${entry}\n${current.slice(firstEntry)}`;
  writeFileSync(path, next);
  return entry;
}

/** Lock entries that this registry does not serve and that were added by hand (see docs/development.md). */
const countStubs = (lock) => (lock.match(/"node_modules\/(@turbo\/|@biomejs\/cli-)[^"]*":/g) ?? []).length;

function updateLockFile(root) {
  const path = join(root, 'package-lock.json');
  const before = countStubs(readFileSync(path, 'utf8'));
  // npm's summary ("up to date in 1s") stays out of the release's report; its errors do not.
  const args = ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];
  if (spawnSync('npm', args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) {
    throw new ReleaseError('npm install --package-lock-only failed; the lock file is not updated.');
  }
  const after = countStubs(readFileSync(path, 'utf8'));
  if (after < before) {
    throw new ReleaseError(
      `npm dropped ${before - after} hand-added @turbo/ or @biomejs/cli- entries from package-lock.json: restore them (git diff package-lock.json).`,
    );
  }
}

/**
 * Releases the document's `info.version`. Refuses when the version is not above the last
 * release, or below what the changes need (one bump per class: breaking for clients the minor
 * while 0.x, else the major; breaking for servers and additive the minor; documentation a patch).
 */
export function release({ root, date = new Date().toISOString().slice(0, 10), lockFile = true }) {
  const since = changesSinceRelease({ document: DOCUMENT, releasesDir: RELEASES, cwd: root });
  if (!since) throw new ReleaseError(`No released snapshot in ${RELEASES}.`);
  const { released: previous, version, changes } = since;
  if (version === previous.version && changes.length === 0) {
    return { released: false, version, text: `Nothing to release: ${DOCUMENT} is the released ${version}.` };
  }
  const needed = nextVersion(previous.version, changes);
  const reasons = `${needed} (${bumpReasons(previous.version, changes)})`;
  if (!semver.valid(version) || semver.lte(version, previous.version)) {
    throw new ReleaseError(
      `info.version ${version} must be above the released ${previous.version}: bump it in ${DOCUMENT}` +
        (changes.length > 0 ? `; the changes since need ${reasons}.` : '.'),
    );
  }
  if (semver.lt(version, needed)) {
    throw new ReleaseError(
      `info.version ${version} is too small for the changes since ${previous.version}: they need ${reasons}.`,
    );
  }

  const snapshot = join(root, RELEASES, `${version}.yaml`);
  copyFileSync(join(root, DOCUMENT), snapshot);
  rmSync(join(root, previous.path));
  const entry = updateChangelog(root, (notes) =>
    changelogEntry({ version, previous: previous.version, date, changes, notes }),
  );
  const packages = setPackageVersions(root, version);
  if (lockFile) updateLockFile(root);
  return {
    released: true,
    version,
    text: [
      `Released ${version} (was ${previous.version}):`,
      `  ${previous.path} -> ${relative(root, snapshot)}`,
      '  CHANGELOG.md entry:',
      ...entry.split('\n').map((line) => `    ${line}`),
      `  versions set to ${version}: ${packages.join(', ')}`,
      '',
      'Next: review the diff, run `npm test`, and commit it all as the release.',
    ].join('\n'),
  };
}
