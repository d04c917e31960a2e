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

describe('breaking-change gate', { timeout: 60_000 }, () => {
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

  it('fails on a new required request property', () => {
    const result = gate((doc) => {
      const request = schemas(doc).RenameProfileRequest;
      request.properties.reason = { type: 'string', description: 'Why.' };
      request.required.push('reason');
    });
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(/became required: `reason`/);
    // The new property itself is what a server must accept; its being required breaks clients.
    expect(classes(result)?.sort()).toEqual(['breaking-clients', 'breaking-servers']);
  });

  it('fails on a renamed enum value, in a response and in a request parameter', () => {
    const response = gate((doc) => {
      schemas(doc).LoginResponse.properties.flow_type.enum = ['SIGN_IN', 'REAUTH'];
    });
    expect(response.ok).toBe(false);
    expect(response.text).toContain("Enum of `flow_type` gained values: 'SIGN_IN'");
    const request = gate((doc) => {
      schemas(doc).LogStreamQuery.properties.source.enum = ['file', 'supervisor'];
    });
    expect(request.ok).toBe(false);
    expect(request.text).toContain("Enum of `source` lost values: 'path'");
    expect(request.text).toContain('GET /browsers/{id}/logs/stream');
  });

  it('passes an optional response property as additive, with no bump', () => {
    const result = gate((doc) => {
      schemas(doc).Profile.properties.archived_at = { type: 'string', format: 'date-time', description: 'When.' };
    });
    expect(result.ok).toBe(true);
    expect(classes(result)).toEqual(['additive']);
    expect(result.text).toContain('needs info.version bumped');
  });

  it('passes an optional request property, as breaking for servers (closed schemas must accept it)', () => {
    const result = gate((doc) => {
      schemas(doc).RenameProfileRequest.properties.reason = { type: 'string', description: 'Why.' };
    });
    expect(result.ok).toBe(true);
    expect(classes(result)).toEqual(['breaking-servers']);
  });

  it('passes a description-only change as documentation, with no bump', () => {
    const result = gate((doc) => {
      schemas(doc).Profile.properties.last_used_at.description = 'When a session last used the profile.';
    });
    expect(result.ok).toBe(true);
    expect(classes(result)).toEqual(['documentation']);
  });

  it('covers SSE consumers: a property removed from the event data schema breaks them', () => {
    const result = gate((doc) => {
      const event = schemas(doc).LogEvent;
      delete event.properties.message;
      event.required = ['event', 'timestamp'];
    });
    expect(result.ok).toBe(false);
    expect(result.text).toContain('Property `message` of `x-sse-event-data` was removed');
    expect(result.text).toContain('text/event-stream');
  });

  it('passes an optional property added to the event data schema as additive', () => {
    const result = gate((doc) => {
      schemas(doc).LogEvent.properties.level = { type: 'string', description: 'Severity.' };
    });
    expect(result.ok).toBe(true);
    expect(classes(result)).toEqual(['additive']);
  });

  it('fills the gap redocly diff leaves: a conditional requirement that grows on a request schema breaks', () => {
    const result = gate((doc) => {
      schemas(doc).LogStreamQuery.allOf[1].then.required.push('follow');
    });
    expect(result.ok).toBe(false);
    expect(classes(result)).toEqual(['breaking-clients']);
    expect(result.text).toContain('`required` gained `follow` on the request side (redocly diff rated it patch)');
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
