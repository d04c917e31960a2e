// The breaking-change gate, run on edited copies of the released document. What is edited is found
// through the operations model (test-support/document-places.ts); what is added has made-up names.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HTTP_METHODS } from '@browser-cloud/openapi-document';
import semver from 'semver';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { checkApiChanges, releasedSnapshots, versionForBreakingChange } from '../scripts/lib/api-changes.mjs';
import { type Place, placesOf } from './test-support/document-places.js';

type Doc = Record<string, any>;
type Edit = (doc: Doc, at: ReturnType<typeof placesOf>) => void;

const RELEASES = join(import.meta.dirname, 'releases');
const [released] = releasedSnapshots(RELEASES);
if (!released) throw new Error('openapi/releases holds no snapshot');
const releasedText = readFileSync(released.path, 'utf8');
const breakingVersion = versionForBreakingChange(released.version);
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The released document with `edit` made, as text. */
function edited(edit: Edit): string {
  const doc = parse(releasedText);
  edit(doc, placesOf(doc));
  return stringify(doc);
}

/**
 * The gate over the released document edited by `edit`, in a temp copy of the layout. With
 * `committed`, the copy is a git repository whose last commit has the document edited by it.
 */
function gate(edit: Edit, { committed }: { committed?: Edit } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'api-changes-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'releases'));
  writeFileSync(join(dir, 'releases', `${released!.version}.yaml`), releasedText);
  if (committed) {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@localhost', ...args], { cwd: dir });
    writeFileSync(join(dir, 'openapi.yaml'), edited(committed));
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'committed');
  }
  writeFileSync(join(dir, 'openapi.yaml'), edited(edit));
  return checkApiChanges({
    document: 'openapi.yaml',
    releasesDir: 'releases',
    cwd: dir,
    ...(committed ? {} : { committed: null }),
  });
}

const classes = (result: ReturnType<typeof gate>) => result.changes?.map((c) => c.changeClass);
const bump = (doc: Doc) => {
  doc.info.version = breakingVersion;
};
const removeProperty = (place: Place) => delete place.node.properties[place.name];
const made = (description: string) => ({ type: 'string', description });

describe('breaking-change gate', () => {
  it('fails on a removed response property without a bump, naming it, where it is, and "breaking"', () => {
    let removed!: Place;
    const result = gate((_, at) => {
      removed = at.responseProperty();
      removeProperty(removed);
    });
    expect(result.ok).toBe(false);
    expect(classes(result)).toEqual(['breaking-clients']);
    expect(result.text).toContain('1 breaking change for clients');
    expect(result.changes?.[0]).toMatchObject({
      operation: removed.operation,
      message: expect.stringMatching(new RegExp(`^Property \`${removed.name}\` .*removed`)),
      location: { pointer: expect.stringMatching(new RegExp(`/properties/${removed.name}$`)) },
    });
    expect(result.text).toContain(`needs at least ${breakingVersion}`);
  });

  it('passes the same change once info.version has the breaking bump (the minor while 0.x)', () => {
    const result = gate((doc, at) => {
      removeProperty(at.responseProperty());
      bump(doc);
    });
    expect(result.ok).toBe(true);
    expect(classes(result)).toEqual(['breaking-clients']);
    expect(result.text).toContain(`✔ ${breakingVersion} covers every change since ${released.version}.`);
  });

  it('fails when the bump is smaller than a breaking change needs (a patch bump)', () => {
    const patch = semver.inc(released.version, 'patch')!;
    const result = gate((doc, at) => {
      removeProperty(at.responseProperty());
      doc.info.version = patch;
    });
    expect(result.ok).toBe(false);
    expect(result.text).toContain(`info.version is ${patch}`);
  });

  // One document with every breaking edit at once: one Redocly run instead of five.
  it('names each breaking edit: required request property, response and request enums, SSE data, conditional rule', () => {
    const at = placesOf(parse(releasedText));
    const [body, responseEnum, requestEnum, eventData, rule] = [
      at.requestBody(),
      at.responseEnum(),
      at.requestEnum(),
      at.eventData(),
      at.conditionalRule(),
    ];
    const result = gate((_, at) => {
      const request = at.requestBody().node;
      request.properties.zz_required = made('Made up.');
      request.required = [...(request.required ?? []), 'zz_required'];
      at.responseEnum().node.enum.push('zz_value');
      at.requestEnum().node.enum.shift();
      removeProperty(at.eventData());
      at.conditionalRule().node.required.push(rule.name);
    });
    expect(result.ok).toBe(false);
    const breaking = result.changes?.filter((c) => c.changeClass === 'breaking-clients') ?? [];
    expect(breaking.map((c) => `${c.operation} ${c.message}`)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${escapeRegExp(body.operation)} .*\`zz_required\``)),
        expect.stringContaining(`${responseEnum.operation} Enum of property \`${responseEnum.name}\``),
        expect.stringContaining(`gained values: 'zz_value'`),
        expect.stringContaining(`${requestEnum.operation} Enum of `),
        expect.stringContaining(`lost values: '${requestEnum.node.enum[0]}'`),
        expect.stringMatching(
          new RegExp(`^${escapeRegExp(eventData.operation)} Property \`${eventData.name}\` .*removed`),
        ),
        // The gap redocly diff leaves (it rates this patch): filled by the gate.
        expect.stringContaining(`\`${rule.name}\` of `),
      ]),
    );
    expect(breaking).toHaveLength(5);
    expect(breaking.find((c) => c.message.includes(`\`${rule.name}\` of`))?.message).toContain(
      'became required on the request side (redocly diff rated it patch)',
    );
    expect(breaking.find((c) => c.message.includes(`Property \`${eventData.name}\``))?.path).toContain(
      'text/event-stream',
    );
    expect(result.text).toContain('5 breaking changes for clients');
    // The new property itself is something a server must accept: breaking for servers, not clients.
    expect(result.changes?.find((c) => c.path.endsWith('properties/zz_required'))?.changeClass).toBe(
      'breaking-servers',
    );
  });

  it('lists both parts of a renamed enum value, each classified for the side it breaks', () => {
    const at = placesOf(parse(releasedText));
    const [response, request] = [at.responseEnum(), at.requestEnum()];
    const [responseOld, requestOld] = [response.node.enum[0], request.node.enum[0]];
    const result = gate((_, at) => {
      at.responseEnum().node.enum[0] = 'zz_renamed';
      at.requestEnum().node.enum[0] = 'zz_renamed';
    });
    expect(result.ok).toBe(false);
    const parts = (result.changes ?? []).map((c) => [c.changeClass, c.operation, c.message.split(': ')[1]]);
    expect(parts).toEqual(
      expect.arrayContaining([
        // A response: a client refuses the new value; a server built for the release still sends the old one.
        ['breaking-clients', response.operation, "'zz_renamed'. (enum-values-added"],
        ['breaking-servers', response.operation, `'${responseOld}'. (enum-values-removed`],
        // A request: the old value a client sends is refused; a server must accept the new one.
        ['breaking-clients', request.operation, `'${requestOld}'. (enum-values-removed`],
        ['breaking-servers', request.operation, "'zz_renamed'. (enum-values-added"],
      ]),
    );
    expect(result.text).toContain('2 breaking changes for clients');
    expect(result.text).toContain('2 changes breaking for servers');
    expect(result.text).toMatch(new RegExp(`lost values: '${responseOld}'[^\\n]*\\n\\s+at #/[^\\n]*/enum `));
    expect(result.text).toContain(`needs at least ${breakingVersion}`);
  });

  it('classifies an enum that only grows or only shrinks by its side', () => {
    const grown = gate((_, at) => {
      at.responseEnum().node.enum.push('zz_value');
      at.requestEnum().node.enum.push('zz_value');
    });
    expect((grown.changes ?? []).map((c) => [c.changeClass, c.message.split(' (')[0]])).toEqual([
      ['breaking-clients', expect.stringContaining("gained values: 'zz_value'.")],
      ['breaking-servers', expect.stringContaining("gained values: 'zz_value'.")],
    ]);
    const shrunk = gate((_, at) => {
      at.responseEnum().node.enum.pop();
    });
    expect((shrunk.changes ?? []).map((c) => [c.changeClass, c.message.split(': ')[0]])).toEqual([
      ['breaking-servers', expect.stringMatching(/^Enum of .* lost values$/)],
    ]);
  });

  it('passes compatible edits with no bump: optional response and SSE data properties, an optional request one', () => {
    const result = gate((_, at) => {
      at.responseProperty().node.properties.zz_response = made('Made up.');
      at.eventData().node.properties.zz_event = made('Made up.');
      at.requestBody().node.properties.zz_request = made('Made up.');
    });
    expect(result.ok).toBe(true);
    const classOf = (end: string) => result.changes?.find((c) => c.path.endsWith(end))?.changeClass;
    expect(classOf('properties/zz_response')).toBe('additive');
    expect(classOf('x-sse-event-data/properties/zz_event')).toBe('additive');
    // Closed schemas: a server written for the release refuses the new request property.
    expect(classOf('properties/zz_request')).toBe('breaking-servers');
    expect(result.changes).toHaveLength(3);
    expect(result.text).toContain(`needs info.version ${semver.inc(released.version, 'minor')} or above`);
  });

  it('passes a description-only change as documentation, with no bump but a patch at release', () => {
    const result = gate((_, at) => {
      const { node, name } = at.responseProperty();
      node.properties[name].description = 'Made up.';
    });
    expect(result.ok).toBe(true);
    expect(classes(result)).toEqual(['documentation']);
    expect(result.text).toContain(
      `needs info.version ${semver.inc(released.version, 'patch')} or above (documentation`,
    );
  });

  it('classes a vendor extension as documentation wherever it is (the SSE event data schema is no extension)', () => {
    const result = gate((_, at) => {
      at.queryOperation().node['x-zz_extension'] = true;
      at.queryOperation().node.parameters[0]['x-zz_extension'] = 'Made up.';
      at.responseProperty().node['x-zz_extension'] = { zz: 1 };
    });
    expect(classes(result)).toEqual(['documentation', 'documentation', 'documentation']);
  });

  it('fails when info.version goes below the release', () => {
    expect(semver.gt(released.version, '0.0.0')).toBe(true);
    const result = gate((doc) => {
      doc.info.version = '0.0.0';
    });
    expect(result.ok).toBe(false);
    expect(result.text).toContain('lower than the released');
  });

  it('judges a pair again as the first time: its own version, its changes as new objects', () => {
    let removed!: Place;
    const remove: Edit = (_, at) => {
      removed = at.responseProperty();
      removeProperty(removed);
    };
    const first = gate(remove);
    const expected = structuredClone(first.changes);
    first.changes?.splice(0);
    // The same change, with only info.version set otherwise, which Redocly is not given.
    const again = gate(remove);
    const bumped = gate((doc, at) => {
      remove(doc, at);
      bump(doc);
    });
    expect(again.changes).toEqual(expected);
    expect(bumped.changes).toEqual(expected);
    expect(again.changes?.[0]?.location?.pointer).toMatch(new RegExp(`/properties/${removed.name}$`));
    expect([again.ok, bumped.ok]).toEqual([false, true]);
    expect(bumped.text).toContain(`info.version ${breakingVersion}`);
  });

  it('names a new parameter and property by name, and an added and a removed operation by method and path', () => {
    const at = placesOf(parse(releasedText));
    const { node: item, name: method, operation: removed } = at.operation();
    const path = removed.split(' ')[1];
    const unused = HTTP_METHODS.find((m) => item[m] === undefined)!;
    const query = at.queryOperation();
    const response = at.responseProperty();
    // Apart: an operation removed takes its schemas out of every other row.
    const operations = gate((_, at) => {
      const { node } = at.operation();
      node[unused] = { ...node[method], operationId: 'zzAddedOperation' };
      delete node[method];
    });
    const added = `${unused.toUpperCase()} ${path}`;
    expect(operations.changes).toHaveLength(2);
    expect((operations.changes ?? []).map((c) => `${c.operation}: ${c.message}`)).toEqual(
      expect.arrayContaining([
        `${added}: Operation \`${added}\` added.`,
        expect.stringMatching(
          new RegExp(`^${escapeRegExp(removed)}: Operation \`${escapeRegExp(removed)}\` .*removed`),
        ),
      ]),
    );
    const result = gate((_, at) => {
      at.queryOperation().node.parameters.push({ name: 'zz_parameter', in: 'query', schema: { type: 'string' } });
      at.responseProperty().node.properties.zz_property = made('Made up.');
    });
    expect(result.changes).toHaveLength(2);
    expect((result.changes ?? []).map((c) => `${c.operation}: ${c.message}`)).toEqual(
      expect.arrayContaining([
        `${query.operation}: Query parameter \`zz_parameter\` added (optional).`,
        expect.stringMatching(
          new RegExp(`^${escapeRegExp(response.operation)}: Property \`zz_property\` of .* added\\.$`),
        ),
      ]),
    );
    expect(result.text).not.toMatch(/parameters\/\d+ added/);
  });

  // redocly diff pairs the parameters of two lists by how alike their JSON is: a parameter added
  // beside one written the same way (a `$ref` into a component's properties) was taken for a rename
  // of it once that one had changed more, with its type "narrowed" and itself "added".
  it('pairs parameters by name and location: one added beside a changed one written alike, through a $ref', () => {
    const existing = placesOf(parse(releasedText)).propertyRefParameter();
    const removed = placesOf(parse(releasedText)).responseProperty();
    const result = gate((_, at) => {
      const { node, component, parameters } = at.propertyRefParameter();
      removeProperty(at.responseProperty());
      // The existing parameter changes more than the added one differs from its release.
      node.description = `${node.description ?? ''} ${'It changed a lot in this edit. '.repeat(8)}`;
      node['x-zz_extension'] = true;
      component.properties.zz_tail = { type: 'integer', minimum: 0, description: 'Made up.' };
      const added: Record<string, any> = {
        ...structuredClone(node),
        name: 'zz_tail',
        required: false,
        description: 'Made up.',
      };
      added.schema = { $ref: node.schema.$ref.replace(/[^/]+$/, 'zz_tail') };
      delete added.example;
      delete added.examples;
      delete added['x-zz_extension'];
      parameters.splice(parameters.indexOf(node) + 1, 0, added);
    });
    const lines = (result.changes ?? []).map((c) => `${c.changeClass} ${c.operation}: ${c.message}`);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^breaking-clients .*Property \`${removed.name}\` .*removed`)),
        `breaking-servers ${existing.operation}: Query parameter \`zz_tail\` added (optional).`,
        expect.stringMatching(/^additive .*Property `zz_tail` of `.*` added\.$/),
        expect.stringMatching(
          new RegExp(`^documentation .*\`description\` of ${existing.node.in} parameter \`${existing.name}\` modified`),
        ),
        expect.stringMatching(
          new RegExp(`^documentation .*\`x-zz_extension\` of ${existing.node.in} parameter \`${existing.name}\``),
        ),
      ]),
    );
    expect(lines).toHaveLength(5);
    expect(result.text).not.toMatch(/renamed|narrowed|Lower bound/);
    expect(result.text).toContain('1 breaking change for clients');
  });

  it('reports a renamed parameter as the one removed and the other added, each by name', () => {
    const existing = placesOf(parse(releasedText)).propertyRefParameter();
    const result = gate((_, at) => {
      at.propertyRefParameter().node.name = 'zz_renamed';
    });
    const { operation, name, node } = existing;
    // A required parameter added breaks clients (they do not send it), an optional one servers.
    const added = node.required
      ? `breaking-clients ${operation}: Required \`zz_renamed\` ${node.in} parameter was added. (parameter-became-required)`
      : `breaking-servers ${operation}: ${node.in === 'query' ? 'Query' : 'Header'} parameter \`zz_renamed\` added (optional).`;
    expect((result.changes ?? []).map((c) => `${c.changeClass} ${c.operation}: ${c.message}`)).toEqual(
      expect.arrayContaining([
        `breaking-clients ${operation}: \`${name}\` ${node.in} parameter was removed. (parameter-removed)`,
        added,
      ]),
    );
    expect(result.changes).toHaveLength(2);
  });

  it('keeps the changes committed before apart from the new ones, and asks one bump of one class', () => {
    const releaseMinor = semver.inc(released.version, 'minor');
    // Both break servers: a required request property made optional, and a new optional parameter.
    const optional: Edit = (_, at) => {
      const { node, name } = at.requiredRequestProperty();
      node.required = node.required.filter((n: string) => n !== name);
    };
    const parameter: Edit = (_, at) => {
      at.queryOperation().node.parameters.push({ name: 'zz_parameter', in: 'query', schema: { type: 'string' } });
    };
    const needs = (result: ReturnType<typeof gate>) => result.text.match(/needs info\.version (\S+) or above/)?.[1];
    const alone = [gate(optional), gate(parameter)];
    expect(alone.map(classes)).toEqual([['breaking-servers'], ['breaking-servers']]);
    expect(alone.map(needs)).toEqual([releaseMinor, releaseMinor]);

    const both = gate(
      (doc, at) => {
        optional(doc, at);
        parameter(doc, at);
      },
      { committed: optional },
    );
    expect(both.changes?.map((c) => [c.pending, c.message.includes('zz_parameter')])).toEqual(
      expect.arrayContaining([
        [true, false],
        [false, true],
      ]),
    );
    // Committed changes that pass are information about the next release, said so.
    expect(both.ok).toBe(true);
    expect(both.text).toContain(
      `Pending (committed since ${released.version}: for the next release's changelog, nothing to do now):`,
    );
    expect(both.text).toMatch(
      new RegExp(
        `\\n✔ Nothing to do now: no breaking change lacks its version bump\\. For information, when you release: the next \`npm run release\` needs info\\.version ${escapeRegExp(releaseMinor!)} or above \\(breaking for servers: a minor bump\\)\\.$`,
      ),
    );
    const [, fresh, pending] = both.text.split(/^(?:New|Pending) \(/m);
    expect(fresh).toContain('`zz_parameter`');
    expect(fresh).not.toContain('no longer required');
    expect(pending).toContain('no longer required');
    expect(pending).not.toContain('`zz_parameter`');
  });
});

describe('released snapshots', () => {
  it('fails the gate with a clear message when there is none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'api-changes-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'openapi.yaml'), releasedText);
    const result = checkApiChanges({ document: 'openapi.yaml', releasesDir: 'releases', cwd: dir });
    expect(result.ok).toBe(false);
    expect(result.text).toContain('No released snapshot');
  });

  it('picks the highest version, by semver not by name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'api-changes-'));
    dirs.push(dir);
    for (const name of ['0.9.0.yaml', '0.10.0.yaml', 'notes.yaml', '0.2.0.yml']) writeFileSync(join(dir, name), '');
    expect(releasedSnapshots(dir).map((s) => s.version)).toEqual(['0.10.0', '0.9.0']);
  });

  it('needs the minor for a breaking change while 0.x, the major from 1.0', () => {
    expect(versionForBreakingChange('0.1.3')).toBe('0.2.0');
    expect(versionForBreakingChange('1.4.2')).toBe('2.0.0');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
