// The breaking-change gate, run on edited copies of the released document.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { checkApiChanges, releasedSnapshots, versionForBreakingChange } from '../scripts/lib/api-changes.mjs';

type Doc = Record<string, any>;

const RELEASES = join(import.meta.dirname, 'releases');
const [released] = releasedSnapshots(RELEASES);
if (!released) throw new Error('openapi/releases holds no snapshot');
const releasedText = readFileSync(released.path, 'utf8');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The gate over the released document edited by `edit`, in a temp copy of the layout. */
function gate(edit: (doc: Doc) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'api-changes-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'releases'));
  writeFileSync(join(dir, 'releases', `${released!.version}.yaml`), releasedText);
  const doc = parse(releasedText);
  edit(doc);
  writeFileSync(join(dir, 'openapi.yaml'), stringify(doc));
  return checkApiChanges({ document: 'openapi.yaml', releasesDir: 'releases', cwd: dir });
}

const schemas = (doc: Doc) => doc.components.schemas;
const classes = (result: ReturnType<typeof gate>) => result.changes?.map((c) => c.changeClass);
const bump = (doc: Doc) => {
  doc.info.version = versionForBreakingChange(released.version);
};

// Each case starts the Redocly CLI (about a second alone; much more on a loaded machine).
describe('breaking-change gate', { timeout: 180_000 }, () => {
  it('fails on a removed response property without a bump, naming it, where it is, and "breaking"', () => {
    const result = gate((doc) => delete schemas(doc).Profile.properties.last_used_at);
    expect(result.ok).toBe(false);
    expect(classes(result)).toEqual(['breaking-clients']);
    expect(result.text).toContain('1 breaking change for clients');
    expect(result.text).toContain('PATCH /profiles/{id_or_name}');
    expect(result.text).toContain('Property `last_used_at` of `Profile` was removed');
    expect(result.text).toContain('#/components/schemas/Profile/properties/last_used_at');
    expect(result.text).toContain('needs at least 0.2.0');
  });

  it('passes the same change once info.version has the minor bump (0.x)', () => {
    const result = gate((doc) => {
      delete schemas(doc).Profile.properties.last_used_at;
      bump(doc);
    });
    expect(result.ok).toBe(true);
    expect(classes(result)).toEqual(['breaking-clients']);
  });

  it('fails when the bump is smaller than a breaking change needs (a patch bump)', () => {
    const result = gate((doc) => {
      delete schemas(doc).Profile.properties.last_used_at;
      doc.info.version = '0.1.1';
    });
    expect(result.ok).toBe(false);
    expect(result.text).toContain('info.version is 0.1.1');
  });

  // One document with every breaking edit at once: one Redocly run instead of five.
  it('names each breaking edit: required request property, renamed enum values, SSE data, conditional rule', () => {
    const result = gate((doc) => {
      const request = schemas(doc).RenameProfileRequest;
      request.properties.reason = { type: 'string', description: 'Why.' };
      request.required.push('reason');
      schemas(doc).LoginResponse.properties.flow_type.enum = ['SIGN_IN', 'REAUTH'];
      schemas(doc).LogStreamQuery.properties.source.enum = ['file', 'supervisor'];
      const event = schemas(doc).LogEvent;
      delete event.properties.message;
      event.required = ['event', 'timestamp'];
      schemas(doc).LogStreamQuery.allOf[1].then.required.push('follow');
    });
    expect(result.ok).toBe(false);
    const breaking = result.changes?.filter((c) => c.changeClass === 'breaking-clients') ?? [];
    const messages = breaking.map((c) => `${c.operation} ${c.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PATCH \/profiles\/\{id_or_name\} .*became required: `reason`/),
        expect.stringMatching(/^POST \/auth\/connections\/\{id\}\/login Enum of `flow_type` gained values: 'SIGN_IN'/),
        expect.stringMatching(/^GET \/browsers\/\{id\}\/logs\/stream Enum of `source` lost values: 'path'/),
        expect.stringMatching(
          /^GET \/browsers\/\{id\}\/logs\/stream Property `message` of `x-sse-event-data` was removed/,
        ),
        // The gap redocly diff leaves (it rates this patch): filled by the gate.
        expect.stringContaining('`required` gained `follow` on the request side (redocly diff rated it patch)'),
      ]),
    );
    expect(breaking).toHaveLength(5);
    expect(breaking.find((c) => c.message.includes('x-sse-event-data'))?.path).toContain('text/event-stream');
    expect(result.text).toContain('5 breaking changes for clients');
    // The new property itself is something a server must accept: breaking for servers, not clients.
    expect(result.changes?.find((c) => c.path.endsWith('properties/reason'))?.changeClass).toBe('breaking-servers');
  });

  it('lists both parts of a renamed enum value, each classified for the side it breaks', () => {
    const result = gate((doc) => {
      const flowType = schemas(doc).LoginResponse.properties.flow_type;
      flowType.enum = flowType.enum.map((v: string) => (v === 'REAUTH' ? 'RE_AUTH' : v));
      schemas(doc).LogStreamQuery.properties.source.enum = ['path', 'syslog'];
    });
    expect(result.ok).toBe(false);
    const parts = (result.changes ?? []).map((c) => [c.changeClass, c.operation, c.message.split(' (')[0]]);
    expect(parts).toEqual(
      expect.arrayContaining([
        // A response: a client refuses the new value; a server built for the release still sends the old one.
        ['breaking-clients', 'POST /auth/connections/{id}/login', "Enum of `flow_type` gained values: 'RE_AUTH'."],
        ['breaking-servers', 'POST /auth/connections/{id}/login', "Enum of `flow_type` lost values: 'REAUTH'."],
        // A request: the old value a client sends is refused; a server must accept the new one.
        ['breaking-clients', 'GET /browsers/{id}/logs/stream', "Enum of `source` lost values: 'supervisor'."],
        ['breaking-servers', 'GET /browsers/{id}/logs/stream', "Enum of `source` gained values: 'syslog'."],
      ]),
    );
    expect(result.text).toContain('2 breaking changes for clients');
    expect(result.text).toContain('2 changes breaking for servers');
    expect(result.text).toMatch(
      /lost values: 'REAUTH'[^\n]*\n\s+at #\/components\/schemas\/LoginResponse\/properties\/flow_type\/enum/,
    );
    expect(result.text).toContain('needs at least 0.2.0');
  });

  it('classifies an enum that only grows or only shrinks by its side', () => {
    const grown = gate((doc) => {
      schemas(doc).LoginResponse.properties.flow_type.enum.push('SSO');
      schemas(doc).LogStreamQuery.properties.source.enum.push('syslog');
    });
    expect((grown.changes ?? []).map((c) => [c.changeClass, c.message.split(' (')[0]])).toEqual([
      ['breaking-clients', "Enum of `flow_type` gained values: 'SSO'."],
      ['breaking-servers', "Enum of `source` gained values: 'syslog'."],
    ]);
    const shrunk = gate((doc) => {
      schemas(doc).LoginResponse.properties.flow_type.enum = ['LOGIN'];
    });
    expect((shrunk.changes ?? []).map((c) => [c.changeClass, c.message.split(' (')[0]])).toEqual([
      ['breaking-servers', "Enum of `flow_type` lost values: 'REAUTH'."],
    ]);
  });

  it('passes compatible edits with no bump: optional response and SSE data properties, an optional request one', () => {
    const result = gate((doc) => {
      schemas(doc).LoginResponse.properties.region = { type: 'string', description: 'Where.' };
      schemas(doc).LogEvent.properties.level = { type: 'string', description: 'Severity.' };
      schemas(doc).RenameProfileRequest.properties.reason = { type: 'string', description: 'Why.' };
    });
    expect(result.ok).toBe(true);
    const classOf = (end: string) => result.changes?.find((c) => c.path.endsWith(end))?.changeClass;
    expect(classOf('properties/region')).toBe('additive');
    expect(classOf('x-sse-event-data/properties/level')).toBe('additive');
    // Closed schemas: a server written for the release refuses the new request property.
    expect(classOf('properties/reason')).toBe('breaking-servers');
    expect(result.changes).toHaveLength(3);
    expect(result.text).toContain('needs info.version bumped');
  });

  it('passes a description-only change as documentation, with no bump', () => {
    const result = gate((doc) => {
      schemas(doc).Profile.properties.last_used_at.description = 'When a session last used the profile.';
    });
    expect(result.ok).toBe(true);
    expect(classes(result)).toEqual(['documentation']);
  });

  it('fails when info.version goes below the release', () => {
    const result = gate((doc) => {
      doc.info.version = '0.0.9';
    });
    expect(result.ok).toBe(false);
    expect(result.text).toContain('lower than the released');
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
