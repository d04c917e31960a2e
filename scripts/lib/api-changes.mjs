// What changed in the OpenAPI document since its last release, for whom it breaks, and which
// version the next release needs. `redocly diff` walks each operation (request and response apart,
// and the SSE event data under `x-sse-event-data`) and rates each change; this adds for whom it
// breaks, which changes are documentation only, one bump per class, a sentence where Redocly's
// verdicts say nothing, which changes were committed before, and one gap it leaves (`classOf`).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  deref,
  formatPointer,
  getAt,
  HTTP_METHODS,
  parsePointer,
  readYaml,
  writeRenderedDocument,
} from '@browser-cloud/openapi-document';
import semver from 'semver';
import { keyParametersByIdentity, withoutIdentityKeys } from './parameter-identities.mjs';

const require = createRequire(import.meta.url);
const REDOCLY_BIN = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
// Its `extends: diff-recommended` gives the ratings; a config without it rates every change patch.
const REDOCLY_CONFIG = fileURLToPath(new URL('../../redocly.yaml', import.meta.url));

/**
 * The four classes, in the order reports list them, and the bump each needs whatever `redocly
 * diff` rated the change: a server built for the release refuses what a change breaking for
 * servers allows, so it ships as a new feature, like an additive one.
 */
const CLASSES = {
  'breaking-clients': { title: 'breaking for clients', bump: 'breaking' },
  'breaking-servers': { title: 'breaking for servers', bump: 'minor' },
  additive: { title: 'additive', bump: 'minor' },
  documentation: { title: 'documentation', bump: 'patch' },
};
const BUMP_WORDS = { breaking: 'a breaking bump (the minor while 0.x)', minor: 'a minor bump', patch: 'a patch bump' };

/** Keywords that change what people read, never what validates or what is sent. */
const DOCUMENTATION_KEYWORDS =
  /^(?:description|summary|title|examples?|externalDocs|deprecated|contact|license|termsOfService)$/;

/** Released snapshots in `dir`, named `<version>.yaml`, highest version first. */
export function releasedSnapshots(dir) {
  return (existsSync(dir) ? readdirSync(dir) : [])
    .map((name) => ({ name, version: name.replace(/\.yaml$/, '') }))
    .filter(({ name, version }) => name.endsWith('.yaml') && semver.valid(version) === version)
    .sort((a, b) => semver.rcompare(a.version, b.version))
    .map(({ name, version }) => ({ version, path: join(dir, name) }));
}

/** The lowest version that may carry a breaking change after `released` (while 0.x, the minor). */
export function versionForBreakingChange(released) {
  return semver.inc(released, semver.major(released) === 0 ? 'minor' : 'major');
}

/** The lowest version after `released` that a change of `changeClass` may ship in. */
function versionFor(changeClass, released) {
  const { bump } = CLASSES[changeClass];
  return bump === 'breaking' ? versionForBreakingChange(released) : semver.inc(released, bump);
}

/** The lowest version that covers every change since `released` (`released` when there is none). */
export function nextVersion(released, changes) {
  return changes.reduce((next, change) => {
    const needed = versionFor(change.changeClass, released);
    return semver.gt(needed, next) ? needed : next;
  }, released);
}

/** "breaking for servers and additive: a minor bump": the classes that set the next version. */
export function bumpReasons(released, changes) {
  const next = nextVersion(released, changes);
  const classes = byClass(changes).filter(({ changeClass }) => versionFor(changeClass, released) === next);
  return classes.length === 0
    ? 'no change'
    : `${classes.map((c) => c.title).join(' and ')}: ${BUMP_WORDS[CLASSES[classes[0].changeClass].bump]}`;
}

/** The changes by class, in the order reports list them, for the classes that have some. */
export function byClass(changes) {
  return Object.entries(CLASSES)
    .map(([changeClass, { title }]) => ({
      changeClass,
      title,
      changes: changes.filter((c) => c.changeClass === changeClass),
    }))
    .filter((group) => group.changes.length > 0);
}

/**
 * `info.version` of `revision` and the classified changes from `base` (paths relative to `cwd`).
 * Redocly reads the loader's JSON rendering of each (its own YAML reading takes an alias for a
 * removal); a location it names there is mapped back to where the pointer's value starts in the
 * YAML file (through an alias, in its anchor).
 * @throws OpenApiDocumentError when the loader refuses a document.
 */
function diffDocuments(base, revision, cwd) {
  const sources = [base, revision];
  const dir = mkdtempSync(join(tmpdir(), 'openapi-rendered-'));
  try {
    const files = sources.map((path, i) => {
      const file = join(dir, String(i), `${basename(path, extname(path))}.json`);
      writeRenderedDocument(resolve(cwd, path), file);
      return file;
    });
    // Redocly pairs parameters by likeness, not by name and location, unless each carries its identity.
    const documents = files.map((file) => JSON.parse(readFileSync(file, 'utf8')));
    keyParametersByIdentity(documents);
    // Without info.version, which the gate reads itself: a pair that differs only there is one diff.
    const texts = documents.map((document) =>
      JSON.stringify({ ...document, info: { ...document.info, version: '0' } }),
    );
    for (const [i, file] of files.entries()) writeFileSync(file, texts[i]);
    const report = redoclyDiff(
      dir,
      files.map((file) => relative(dir, file)),
      texts,
    );
    // A YAML file is read again only when one of its locations is mapped (most runs map none).
    const readings = [];
    const relocate = (location) => {
      const i = location?.file === undefined ? -1 : files.indexOf(resolve(dir, location.file));
      if (i === -1) return location;
      readings[i] ??= readYaml(readFileSync(resolve(cwd, sources[i]), 'utf8'));
      const { line, column } = readings[i].locate(location.pointer ?? '');
      return { ...location, file: sources[i], line, col: column };
    };
    for (const change of report.changes ?? []) {
      if (change.base) change.base = relocate({ ...change.base, value: withoutIdentityKeys(change.base.value) });
      if (change.revision) {
        change.revision = relocate({ ...change.revision, value: withoutIdentityKeys(change.revision.value) });
      }
      for (const v of change.verdicts ?? []) if (v.location) v.location = relocate(v.location);
    }
    const changes = classifyChanges(report, { base: documents[0], revision: documents[1] });
    return { version: documents[1].info?.version, changes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `redocly diff`'s reports in this process, by what it was given: a process may run the gate on
 * the same pair of documents more than once (the tests do, an edit before and after its version
 * bump), and each run of Redocly is a process of its own that loads the whole CLI.
 */
const diffReports = new Map();

/** The JSON report of `redocly diff` of the files `names` in `dir`, whose contents are `texts`. */
function redoclyDiff(dir, names, texts) {
  const key = createHash('sha256')
    .update(JSON.stringify([names, texts]))
    .digest('hex');
  let report = diffReports.get(key);
  if (report === undefined) {
    // Exit 0 whatever changed (`--fail-on=none`): a failure is Redocly's, and its stderr says why.
    const args = ['diff', ...names, '--format=json', '--fail-on=none', '--lint-config=off'];
    report = execFileSync(process.execPath, [REDOCLY_BIN, ...args, `--config=${REDOCLY_CONFIG}`], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' },
    });
    diffReports.set(key, report);
  }
  return JSON.parse(report);
}

/** The changes from the highest snapshot in `releasesDir` to `document`, all relative to `cwd`; undefined without one. */
export function changesSinceRelease({ document, releasesDir, cwd }) {
  const [latest] = releasedSnapshots(resolve(cwd, releasesDir));
  if (!latest) return undefined;
  const released = { ...latest, path: relative(cwd, latest.path) };
  return { released, ...diffDocuments(released.path, document, cwd) };
}

const METHODS = new Set(HTTP_METHODS);

/**
 * Which side of an exchange a change is on: `request`, `response`, `operation` (added, removed,
 * its id or security), or `document`: what no operation reaches (components only the generated
 * validators use, like a schema of cross-parameter rules).
 */
function sideOf(tokens) {
  if (tokens[0] !== 'paths') return { side: 'document', operation: null, rest: tokens };
  const [, path, method, section] = tokens;
  if (!METHODS.has(method)) {
    return { side: method === 'parameters' ? 'request' : 'operation', operation: path, rest: tokens.slice(2) };
  }
  const operation = `${method.toUpperCase()} ${path}`;
  const rest = tokens.slice(3);
  if (section === 'requestBody' || section === 'parameters') return { side: 'request', operation, rest };
  if (section === 'responses') return { side: 'response', operation, rest };
  return { side: 'operation', operation, rest };
}

/** A path item added or removed as a whole is one change per operation in it. */
function byOperation(change) {
  const tokens = parsePointer(change.path);
  if (tokens[0] !== 'paths' || tokens.length !== 2 || change.property) return [change];
  const item = (change.kind === 'removed' ? change.base : change.revision)?.value ?? {};
  const at = (located, method) => located && { ...located, pointer: `${located.pointer}/${method}` };
  return HTTP_METHODS.filter((method) => item[method] !== undefined).map((method) => ({
    ...change,
    path: `#${formatPointer(['paths', tokens[1], method])}`,
    base: at(change.base, method),
    revision: at(change.revision, method),
    verdicts: [],
  }));
}

function isDocumentation(change, tokens) {
  // A vendor extension is read by tools (the SDK's generators), never sent or validated; the SSE
  // event data schema is the exception: it is what the stream carries. An example's value is
  // documentation too (the lint checks it against its schema).
  const keys = change.property ? [...tokens, change.property] : tokens;
  return (
    DOCUMENTATION_KEYWORDS.test(change.property) ||
    ['info', 'tags', 'externalDocs'].includes(tokens[0]) ||
    change.typeName === 'Example' ||
    keys.some((key) => (key.startsWith('x-') && key !== 'x-sse-event-data') || /^examples?$/.test(key))
  );
}

/** The values of two lists (either may be missing) that only one has. */
function listDiff(before, after) {
  const [b, a] = [before, after].map((list) => (Array.isArray(list) ? list : []));
  const missingIn = (list) => (value) => !list.some((v) => Object.is(v, value));
  return { removed: b.filter(missingIn(a)), added: a.filter(missingIn(b)) };
}

function classOf(change, side, tokens) {
  if (change.impact === 'major') return 'breaking-clients';
  if (isDocumentation(change, tokens)) return 'documentation';
  // The gap `redocly diff` leaves: a `required` list that grows where it cannot tell the side (a
  // `then` branch, a component no operation reaches) is rated patch, yet the client's generated
  // validators then refuse requests that were valid: breaking for clients.
  const grew = change.property === 'required' && change.kind !== 'removed';
  if (grew && listDiff(change.base?.value, change.revision?.value).added.length > 0) {
    if (side === 'request' || side === 'document') return 'breaking-clients';
  }
  // A server built for the release must now accept more (a request-side change that does not
  // break clients), implement a new operation, or send something stricter (a response change).
  if (side === 'request') return 'breaking-servers';
  if (side === 'operation' && change.kind === 'added') return 'breaking-servers';
  if (side === 'response' && change.kind !== 'added') return 'breaking-servers';
  return 'additive';
}

const code = (name) => `\`${name}\``;
const capitalized = (text) => `${text[0]?.toUpperCase() ?? ''}${text.slice(1)}`;

/**
 * The place `tokens` names in `document`, in words: "property `a.b` of `Profile`", "query
 * parameter `follow`", "the request body of `POST /login`", "operation `GET /x`".
 */
function subjectOf(tokens, document) {
  const parameter = (at) => {
    const node = deref(document, getAt(document, formatPointer(at)) ?? {});
    return `${node.in ?? ''} parameter ${code(node.name ?? at.at(-1))}`.trim();
  };
  let owner;
  let rest;
  if (tokens[0] === 'components' && tokens[1] === 'parameters')
    [owner, rest] = [parameter(tokens.slice(0, 3)), tokens.slice(3)];
  else if (tokens[0] === 'components') [owner, rest] = [code(tokens[2] ?? tokens[1]), tokens.slice(3)];
  else if (tokens[0] === 'paths') {
    const operation = METHODS.has(tokens[2]) ? `${tokens[2].toUpperCase()} ${tokens[1]}` : tokens[1];
    const at = METHODS.has(tokens[2]) ? 3 : 2;
    const [section, key] = [tokens[at], tokens[at + 1]];
    if (section === undefined) return `operation ${code(operation)}`;
    if (section === 'parameters' && key !== undefined)
      [owner, rest] = [parameter(tokens.slice(0, at + 2)), tokens.slice(at + 2)];
    else if (section === 'requestBody')
      [owner, rest] = [`the request body of ${code(operation)}`, tokens.slice(at + 1)];
    else if (section === 'responses' && key !== undefined) {
      [owner, rest] = [`the ${key} response of ${code(operation)}`, tokens.slice(at + 2)];
    } else [owner, rest] = [`${code(tokens.slice(at).join('/'))} of ${code(operation)}`, []];
  } else return code(tokens.join('/') || 'the document');
  const chain = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === 'properties' && i + 1 < rest.length) chain.push(rest[++i]);
    else if (rest[i] === 'x-sse-event-data') {
      owner = `the event data of ${owner}`;
      chain.length = 0;
    }
  }
  return chain.length > 0 ? `property ${code(chain.join('.'))} of ${owner}` : owner;
}

/** Where a change is written, as tokens of a pointer into the document it is in. */
function placeOf(change) {
  const located = change.kind === 'removed' ? (change.base ?? change.revision) : (change.revision ?? change.base);
  const tokens = parsePointer(located?.pointer ?? change.path);
  return change.property && tokens.at(-1) === change.property ? tokens.slice(0, -1) : tokens;
}

const shortValue = (value) => {
  const text = JSON.stringify(value);
  return text !== undefined && text.length <= 60 ? text : undefined;
};

/** A sentence naming what changed: Redocly's verdict when it gave one, else the gate's. */
function describe(change, subject, gap) {
  const verdict = change.verdicts?.find((v) => v.message);
  if (verdict) return `${verdict.message} (${verdict.ruleId})`;
  if (!change.property) {
    const value = change.kind === 'removed' ? change.base?.value : change.revision?.value;
    const presence = change.typeName === 'Parameter' ? ` (${value?.required ? 'required' : 'optional'})` : '';
    return `${capitalized(subject)} ${change.kind}${presence}.`;
  }
  if (change.property === 'required' && (Array.isArray(change.base?.value) || Array.isArray(change.revision?.value))) {
    const { added: grew, removed: shrank } = listDiff(change.base?.value, change.revision?.value);
    const list = (names) => names.map(code).join(', ');
    const became = grew.length > 0 && `${list(grew)} of ${subject} became required${gap ? ` ${gap}` : ''}.`;
    const noLonger =
      shrank.length > 0 && `${list(shrank)} of ${subject} ${shrank.length === 1 ? 'is' : 'are'} no longer required.`;
    return [became, noLonger].filter(Boolean).join(' ');
  }
  const [from, to] = [shortValue(change.base?.value), shortValue(change.revision?.value)];
  const values = change.kind === 'modified' && from && to ? ` from ${from} to ${to}` : '';
  return `${code(change.property)} of ${subject} ${change.kind}${values}.`;
}

/**
 * The parts of a changed `enum`, each classified on its own: `redocly diff` reports the change
 * once, naming one part (a rename is only "gained values"), and the two break different sides. In
 * a response an added value breaks clients (their validators refuse it), a removed one servers
 * (one built for the release may still send it); in a request it is the other way round.
 */
function enumParts(change, side, subject) {
  if (change.property !== 'enum' || change.kind !== 'modified') return null;
  if (!Array.isArray(change.base?.value) || !Array.isArray(change.revision?.value)) return null;
  const { removed, added } = listDiff(change.base.value, change.revision.value);
  const sentByServer = side === 'response';
  const list = (values) => values.map((v) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v))).join(', ');
  const parts = [];
  if (removed.length > 0) {
    parts.push({
      changeClass: sentByServer ? 'breaking-servers' : 'breaking-clients',
      message: `Enum of ${subject} lost values: ${list(removed)}. (enum-values-removed: ${
        sentByServer ? 'a server built for the release may still send them' : 'requests that send them are refused'
      })`,
      located: change.base,
    });
  }
  if (added.length > 0) {
    parts.push({
      changeClass: sentByServer ? 'breaking-clients' : 'breaking-servers',
      message: `Enum of ${subject} gained values: ${list(added)}. (enum-values-added: ${
        sentByServer ? 'clients built for the release refuse them' : 'a server built for the release refuses them'
      })`,
      located: change.revision,
    });
  }
  return parts;
}

/**
 * Every change of a `redocly diff` JSON report with its class, its operation and path there, a
 * sentence, its place in the file, and a key equal for the same change in another diff from the
 * same release. The diffed documents hold no `info.version` (the gate checks it; see
 * `diffDocuments`); an `enum` gives one entry per part, a path item one per operation. `documents` (the two diffed) name parameters.
 */
function classifyChanges(report, documents) {
  return (report.changes ?? []).flatMap(byOperation).flatMap((change) => {
    const tokens = parsePointer(change.path);
    const { side, operation, rest } = sideOf(tokens);
    const { kind, impact } = change;
    const path = [...rest, ...(change.property ? [change.property] : [])].join('/');
    const key = JSON.stringify([change.path, change.property, kind, change.base?.value, change.revision?.value]);
    const subject = subjectOf(placeOf(change), kind === 'removed' ? documents.base : documents.revision);
    const entry = (changeClass, message, at, entryKey = key) => {
      const location = at ? { file: at.file, line: at.line, pointer: at.pointer } : null;
      return { changeClass, side, operation, path, kind, impact, message, location, key: entryKey };
    };
    const parts = enumParts(change, side, subject);
    if (parts) return parts.map((part, i) => entry(part.changeClass, part.message, part.located, `${key}#${i}`));
    const changeClass = classOf(change, side, tokens);
    // Only the gap `classOf` fills makes a change breaking for clients that Redocly did not rate major.
    const gap = changeClass === 'breaking-clients' && impact !== 'major';
    const message = describe(change, subject, gap ? `on the request side (redocly diff rated it ${impact})` : null);
    return [
      entry(changeClass, message, change.verdicts?.find((v) => v.location)?.location ?? change.revision ?? change.base),
    ];
  });
}

/** One line per change (and its place), for the gate's output and the changelog. */
export function formatChange(change, { markdown = false } = {}) {
  const where = change.operation ?? 'components';
  if (markdown) return `- \`${where}\`: ${change.message}`;
  const at = change.location
    ? `\n      at ${change.location.pointer} (${change.location.file}:${change.location.line})`
    : '';
  return `    ${where}: ${change.message}${at}`;
}

/** The changes by class, under `title`: the gate's report of one group. */
function formatGroup(title, changes) {
  const lines = ['', title];
  for (const group of byClass(changes)) {
    const count = group.changes.length;
    const heading = `  ${count} ${count === 1 ? 'change' : 'changes'} ${group.title}:`;
    lines.push(heading, ...group.changes.map((c) => formatChange(c)));
  }
  if (changes.length === 0) lines.push('  no changes');
  return lines;
}

/** `document` as the last commit has it, or null (not a git checkout, or not committed). */
function committedDocument(cwd, document) {
  const git = spawnSync('git', ['show', `HEAD:./${document}`], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return git.status === 0 ? git.stdout : null;
}

/** Keys of the changes from the release to `text` (a document not written to a file). */
function changeKeys(releasedPath, text, cwd) {
  const dir = mkdtempSync(join(tmpdir(), 'api-changes-committed-'));
  try {
    writeFileSync(join(dir, 'openapi.yaml'), text);
    return new Set(diffDocuments(releasedPath, join(dir, 'openapi.yaml'), cwd).changes.map((c) => c.key));
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The breaking-change gate: `document` against the last release. Fails when a change breaks
 * clients without the bump semver requires (while 0.x, the minor), or when the version went
 * backwards; the report says which version the next release needs. `committed` (by default the
 * document in git's HEAD) splits the changes: those already committed are `pending`.
 */
export function checkApiChanges({
  document,
  releasesDir,
  cwd = process.cwd(),
  committed = committedDocument(cwd, document),
}) {
  const since = changesSinceRelease({ document, releasesDir, cwd });
  if (!since) {
    return { ok: false, text: `No released snapshot (<version>.yaml) in ${releasesDir}: run \`npm run release\`.` };
  }
  const { released, version, changes } = since;
  const current = readFileSync(resolve(cwd, document), 'utf8');
  const pending =
    committed === null || changes.length === 0
      ? null
      : committed === current
        ? 'all'
        : changeKeys(released.path, committed, cwd);
  for (const change of changes) change.pending = pending === 'all' || (pending?.has(change.key) ?? false);

  const [fresh, committedBefore] = [changes.filter((c) => !c.pending), changes.filter((c) => c.pending)];
  const groups =
    pending === null
      ? [formatGroup('Changes since the release:', changes)]
      : [
          formatGroup('New (not committed yet):', fresh),
          formatGroup(
            `Pending (committed since ${released.version}: for the next release's changelog, nothing to do now):`,
            committedBefore,
          ),
        ];
  const lines = [`${document} (info.version ${version}) against the last release, ${released.path}:`, ...groups.flat()];

  const failures = [];
  if (!semver.valid(version)) failures.push(`info.version "${version}" is not a semver version.`);
  else if (semver.lt(version, released.version)) {
    failures.push(`info.version ${version} is lower than the released ${released.version}.`);
  }
  const breaking = changes.filter((c) => c.changeClass === 'breaking-clients');
  const needed = versionForBreakingChange(released.version);
  if (breaking.length > 0 && semver.valid(version) && semver.lt(version, needed)) {
    failures.push(
      `${breaking.length} breaking ${breaking.length === 1 ? 'change' : 'changes'} for clients, and info.version is ` +
        `${version}: a breaking change needs at least ${needed}. Bump info.version in ${document} ` +
        `(then \`npm run generate\`), or make the change compatible.`,
    );
  }
  if (failures.length > 0) {
    return { ok: false, changes, text: [...lines, '', ...failures.map((f) => `✖ ${f}`)].join('\n') };
  }
  const next = nextVersion(released.version, changes);
  const summary = semver.gte(version, next)
    ? `✔ ${version} covers every change since ${released.version}.`
    : `✔ Nothing to do now: no breaking change lacks its version bump. For information, when you release: the next \`npm run release\` needs info.version ${next} or above (${bumpReasons(released.version, changes)}).`;
  return { ok: true, changes, text: [...lines, '', summary].join('\n') };
}
