// What changed in the OpenAPI document since its last release, and for whom it breaks.
//
// `redocly diff` does the diff: it walks each operation (request and response sides apart, and
// the SSE event data schema under `x-sse-event-data`), rates every change by the semver bump it
// needs, and with `--check-version` says whether `info.version` was bumped enough. This module
// adds what it does not say: for whom a change breaks (clients or servers), which changes are
// documentation only, and one gap it leaves open (see `requiredGrew`).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePointer } from '@browser-cloud/openapi-document';
import semver from 'semver';
import { renderDocuments } from './rendered-documents.mjs';

const require = createRequire(import.meta.url);
const REDOCLY_BIN = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
// Its `extends: diff-recommended` gives the ratings; a config without it rates every change patch.
const REDOCLY_CONFIG = fileURLToPath(new URL('../../redocly.yaml', import.meta.url));

/** The four classes, in the order reports list them. */
export const CHANGE_CLASSES = ['breaking-clients', 'breaking-servers', 'additive', 'documentation'];

export const CLASS_TITLES = {
  'breaking-clients': 'breaking for clients',
  'breaking-servers': 'breaking for servers',
  additive: 'additive',
  documentation: 'documentation',
};

/** Keywords that change what people read, never what validates or what is sent. */
const DOCUMENTATION_KEYWORDS = new Set([
  'description',
  'summary',
  'title',
  'example',
  'examples',
  'externalDocs',
  'deprecated',
  'contact',
  'license',
  'termsOfService',
]);

const DOCUMENTATION_ROOTS = new Set(['info', 'tags', 'externalDocs']);

/** Released snapshots in `dir`, named `<version>.yaml`, highest version first. */
export function releasedSnapshots(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map((name) => ({ name, version: name.replace(/\.yaml$/, '') }))
    .filter(({ name, version }) => name.endsWith('.yaml') && semver.valid(version) === version)
    .sort((a, b) => semver.rcompare(a.version, b.version))
    .map(({ name, version }) => ({ version, path: join(dir, name) }));
}

/**
 * `redocly diff --check-version` of two documents. Its JSON report carries no version verdict;
 * the exit status and stderr do (1 and "❌ info.version stayed …" when the bump is too small).
 * Redocly reads the loader's JSON rendering of each (its own YAML reading takes an alias for a
 * removal), and the report's locations are mapped back to the YAML files.
 */
export function diffDocuments(base, revision, { cwd = process.cwd() } = {}) {
  const rendered = renderDocuments([base, revision], { cwd });
  try {
    return redoclyDiff(rendered, base, revision, cwd);
  } finally {
    rendered.dispose();
  }
}

function redoclyDiff({ files, relocate }, base, revision, cwd) {
  const result = spawnSync(
    process.execPath,
    [
      REDOCLY_BIN,
      'diff',
      ...files,
      '--format=json',
      '--check-version',
      '--fail-on=none',
      '--lint-config=off',
      `--config=${REDOCLY_CONFIG}`,
    ],
    {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' },
    },
  );
  let report;
  try {
    report = JSON.parse(result.stdout);
  } catch {
    throw new Error(
      `redocly diff ${base} ${revision} failed (exit ${result.status}):\n${result.stderr || result.error || ''}`,
    );
  }
  report.files = { base, revision };
  for (const change of report.changes ?? []) {
    if (change.base) change.base = relocate(change.base);
    if (change.revision) change.revision = relocate(change.revision);
    for (const verdict of change.verdicts ?? []) if (verdict.location) verdict.location = relocate(verdict.location);
  }
  const verdict = result.stderr
    .split('\n')
    .map((line) => line.replace(/^\W*/u, '').trim())
    .find((line) => line.startsWith('info.version'));
  return { report, versionBumpedEnough: result.status === 0, versionVerdict: verdict ?? null };
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * Which side of an exchange a change is on: `request` (parameters, body), `response`,
 * `operation` (the operation itself: added, removed, its id or security), or `document` for
 * what no operation reaches (components only the generated validators use, like LogStreamQuery's
 * cross-parameter rules).
 */
function sideOf(tokens) {
  if (tokens[0] !== 'paths') return { side: 'document', operation: null, rest: tokens };
  const [, path, method, section] = tokens;
  if (!HTTP_METHODS.has(method)) {
    return { side: method === 'parameters' ? 'request' : 'operation', operation: path, rest: tokens.slice(2) };
  }
  const operation = `${method.toUpperCase()} ${path}`;
  const rest = tokens.slice(3);
  if (section === 'requestBody' || section === 'parameters') return { side: 'request', operation, rest };
  if (section === 'responses') return { side: 'response', operation, rest };
  return { side: 'operation', operation, rest };
}

function isDocumentation(change, tokens) {
  if (DOCUMENTATION_KEYWORDS.has(change.property)) return true;
  if (DOCUMENTATION_ROOTS.has(tokens[0])) return true;
  // An example's value is documentation (the lint checks it against its schema).
  return tokens.includes('examples') || tokens.includes('example') || change.typeName === 'Example';
}

/**
 * The gap `redocly diff` leaves: a `required` list that grows where the tool cannot tell the
 * side (a `then` branch, or a component no operation reaches, such as LogStreamQuery's
 * "`path` is required when `source` is `path`") is rated patch. Requests that were valid become
 * invalid, and the generated validators refuse them in the client: breaking for clients.
 */
function requiredGrew(change) {
  if (change.property !== 'required' || change.kind === 'removed') return [];
  const before = new Set(Array.isArray(change.base?.value) ? change.base.value : []);
  const after = Array.isArray(change.revision?.value) ? change.revision.value : [];
  return after.filter((name) => !before.has(name));
}

function classOf(change, side, tokens) {
  if (change.impact === 'major') return { changeClass: 'breaking-clients', gap: null };
  if (isDocumentation(change, tokens)) return { changeClass: 'documentation', gap: null };
  const grew = requiredGrew(change);
  if (grew.length > 0 && (side === 'request' || side === 'document')) {
    return {
      changeClass: 'breaking-clients',
      gap: `\`required\` gained ${grew.map((n) => `\`${n}\``).join(', ')} on the request side (redocly diff rated it ${change.impact})`,
    };
  }
  // A server written for the released document must now accept more (any request-side change
  // that does not break clients widens what they may send), implement a new operation, or send
  // less or something stricter (a response-side modification that does not break clients).
  if (side === 'request') return { changeClass: 'breaking-servers', gap: null };
  if (side === 'operation' && change.kind === 'added') return { changeClass: 'breaking-servers', gap: null };
  if (side === 'response' && change.kind !== 'added') return { changeClass: 'breaking-servers', gap: null };
  return { changeClass: 'additive', gap: null };
}

/**
 * The parts of a changed `enum`: values removed and values added, each classified on its own.
 * `redocly diff` reports the change once, naming one part (a rename is only "gained values"),
 * and the two parts break different sides. In a response (server to client), an added value
 * breaks clients (their validators and exhaustive switches refuse it), a removed one breaks
 * servers (a server built for the release may still send it). In a request, or in a component
 * only the generated validators use, it is the other way round: a removed value breaks clients
 * (what they send is refused), an added one breaks servers (they must accept it).
 */
function enumParts(change, side) {
  if (change.property !== 'enum' || change.kind !== 'modified') return null;
  const before = change.base?.value;
  const after = change.revision?.value;
  if (!Array.isArray(before) || !Array.isArray(after)) return null;
  const removed = before.filter((value) => !after.some((v) => Object.is(v, value)));
  const added = after.filter((value) => !before.some((v) => Object.is(v, value)));
  const sentByServer = side === 'response';
  const pointer = parsePointer((change.revision ?? change.base).pointer);
  const named = pointer.at(-2);
  const name = named && named !== 'schema' && named !== 'items' ? named : (parsePointer(change.path).at(-1) ?? 'enum');
  const list = (values) => values.map((v) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v))).join(', ');
  const parts = [];
  if (removed.length > 0) {
    parts.push({
      changeClass: sentByServer ? 'breaking-servers' : 'breaking-clients',
      message: `Enum of \`${name}\` lost values: ${list(removed)}. (enum-values-removed: ${
        sentByServer ? 'a server built for the release may still send them' : 'requests that send them are refused'
      })`,
      located: change.base,
    });
  }
  if (added.length > 0) {
    parts.push({
      changeClass: sentByServer ? 'breaking-clients' : 'breaking-servers',
      message: `Enum of \`${name}\` gained values: ${list(added)}. (enum-values-added: ${
        sentByServer ? 'clients built for the release refuse them' : 'a server built for the release refuses them'
      })`,
      located: change.revision,
    });
  }
  return parts;
}

function describe(change, rest, gap) {
  const verdict = change.verdicts?.find((v) => v.message)?.message;
  if (verdict) return `${verdict} (${change.verdicts[0].ruleId})`;
  const what = change.property ? `\`${change.property}\` of ${rest.join('/') || 'the operation'}` : rest.join('/');
  const text = `${what} ${change.kind}`;
  return gap ? `${text}: ${gap}` : text;
}

function locationOf(change) {
  const located = change.verdicts?.find((v) => v.location)?.location ?? change.revision ?? change.base;
  if (!located) return null;
  return { file: located.file, line: located.line, pointer: located.pointer };
}

/**
 * Every change of a `redocly diff` JSON report with its class, where it is (the operation and
 * the path inside it), a sentence that names the changed property, and its place in the file.
 * The `info.version` change itself is left out: it is what the gate checks. A changed `enum`
 * gives one entry per part, its removed values and its added ones (see `enumParts`).
 */
export function classifyChanges(report) {
  const changes = [];
  for (const change of report.changes ?? []) {
    const tokens = parsePointer(change.path);
    if (tokens[0] === 'info' && change.property === 'version') continue;
    const { side, operation, rest } = sideOf(tokens);
    const path = [...rest, ...(change.property ? [change.property] : [])].join('/');
    const { kind, impact } = change;
    const parts = enumParts(change, side);
    if (parts) {
      for (const { changeClass, message, located } of parts) {
        const location = located ? { file: located.file, line: located.line, pointer: located.pointer } : null;
        changes.push({ changeClass, side, operation, path, kind, impact, message, location });
      }
      continue;
    }
    const { changeClass, gap } = classOf(change, side, tokens);
    changes.push({
      changeClass,
      side,
      operation,
      path,
      kind,
      impact,
      message: describe(change, rest, gap),
      location: locationOf(change),
    });
  }
  return changes;
}

/** The lowest version that may carry a breaking change after `released` (while 0.x, the minor). */
export function versionForBreakingChange(released) {
  return semver.inc(released, semver.major(released) === 0 ? 'minor' : 'major');
}

/** One line per change, for the gate's output and the changelog. */
export function formatChange(change, { markdown = false } = {}) {
  const where = change.operation ?? 'components';
  const at = change.location ? `${change.location.pointer} (${change.location.file}:${change.location.line})` : '';
  if (markdown) return `- \`${where}\` ${change.path ? `\`${change.path}\`` : ''}: ${change.message}`;
  return `  ${where}  ${change.path}\n      ${change.message}${at ? `\n      at ${at}` : ''}`;
}

/**
 * The breaking-change gate: `document` against the highest snapshot in `releasesDir`. Fails when
 * a change breaks clients and `info.version` is not bumped as semver requires (while 0.x, the
 * minor), or when the version went backwards. Other changes pass; the report says which bump
 * the next release will need for them.
 */
export function checkApiChanges({ document, releasesDir, cwd = process.cwd() }) {
  const [latest] = releasedSnapshots(resolve(cwd, releasesDir));
  const released = latest && { ...latest, path: relative(cwd, latest.path) };
  if (!released) {
    return { ok: false, text: `No released snapshot (<version>.yaml) in ${releasesDir}: run \`npm run release\`.` };
  }
  const { report, versionBumpedEnough, versionVerdict } = diffDocuments(released.path, document, { cwd });
  const version = report.infoVersions.revision;
  const changes = classifyChanges(report);
  const lines = [`${document} (info.version ${version}) against the last release, ${released.path}:`];
  for (const changeClass of CHANGE_CLASSES) {
    const ofClass = changes.filter((c) => c.changeClass === changeClass);
    if (ofClass.length === 0) continue;
    lines.push('', `${ofClass.length} ${ofClass.length === 1 ? 'change' : 'changes'} ${CLASS_TITLES[changeClass]}:`);
    lines.push(...ofClass.map((c) => formatChange(c)));
  }
  if (changes.length === 0) lines.push('  no changes');

  const failures = [];
  if (!semver.valid(version)) failures.push(`info.version "${version}" is not a semver version.`);
  else if (semver.lt(version, released.version)) {
    failures.push(`info.version ${version} is lower than the released ${released.version}.`);
  }
  const breaking = changes.filter((c) => c.changeClass === 'breaking-clients');
  const needed = versionForBreakingChange(released.version);
  if (breaking.length > 0 && semver.valid(version) && (!versionBumpedEnough || semver.lt(version, needed))) {
    failures.push(
      `${breaking.length} breaking ${breaking.length === 1 ? 'change' : 'changes'} for clients, and info.version is ` +
        `${version}: a breaking change needs at least ${needed}. Bump info.version in ${document} ` +
        `(then \`npm run generate\`), or make the change compatible.` +
        (versionVerdict ? `\nredocly diff --check-version: ${versionVerdict}` : ''),
    );
  }
  if (failures.length > 0)
    return { ok: false, changes, text: [...lines, '', ...failures.map((f) => `✖ ${f}`)].join('\n') };
  const summary =
    versionBumpedEnough || changes.length === 0
      ? `✔ ${version} covers every change since ${released.version}.`
      : `✔ no breaking change without its version bump. The next \`npm run release\` needs info.version bumped: ${versionVerdict}`;
  return { ok: true, changes, text: [...lines, '', summary].join('\n') };
}
