import { loadOpenApiDocument, type OpenApiDocument } from '@browser-cloud/openapi-document';
import { describe, expect, it } from 'vitest';
import { profileBody } from '../src/domain/rename.js';
import { errorBody } from '../src/http/api-error.js';
import { checkProducedProperties, PRODUCED_PROPERTIES } from '../src/openapi/produced-properties.js';
import { formatLogEvent } from '../src/sse/format-event.js';
import type { Profile } from '../src/state/store.js';
import { REFS, login, rename, start } from './helpers.js';

/**
 * The sandbox answers through the document it is given: its replies are serialised with the
 * operation's response schemas, so an edit of the document shows in its answers with no change
 * to its code. Each case builds the sandbox from an edited copy of the repository's document.
 */
function edited(edit: (schemas: Record<string, Record<string, any>>) => void): OpenApiDocument {
  const document = structuredClone(loadOpenApiDocument());
  edit(document.components!.schemas as Record<string, Record<string, any>>);
  return document;
}

const P = REFS.profiles;

describe('a property the document removes', () => {
  it('disappears from the answers, though the sandbox and its fixture still hold it (no 500)', async () => {
    const document = edited((schemas) => {
      delete schemas['Profile']!['properties']['last_used_at'];
      delete schemas['Profile']!['examples'];
      delete schemas['LoginResponse']!['properties']['live_view_url'];
    });
    const sandbox = await start({ document });
    try {
      // The default fixture's profile has lastUsedAt; the code still writes last_used_at.
      const renamed = await rename(sandbox, P.defaultProject.id, { name: 'after-removal' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ id: P.defaultProject.id, name: 'after-removal' });
      expect(renamed.body).not.toHaveProperty('last_used_at');
      const started = await login(sandbox, REFS.authConnections.withoutCredentials);
      expect(started.status).toBe(200);
      expect(started.body).toHaveProperty('hosted_url');
      expect(started.body).not.toHaveProperty('live_view_url');
    } finally {
      await sandbox.close();
    }
  });

  it('disappears from the log events', async () => {
    const document = edited((schemas) => {
      delete schemas['LogEvent']!['properties']['event'];
      schemas['LogEvent']!['required'] = ['timestamp', 'message'];
      delete schemas['LogEvent']!['examples'];
    });
    const sandbox = await start({ document });
    try {
      const response = await fetch(
        `${sandbox.url}/browsers/${REFS.browsers.main.id}/logs/stream?source=path&path=${encodeURIComponent(REFS.browsers.main.path)}`,
        { headers: { authorization: `Bearer ${REFS.tokens.owner}` } },
      );
      expect(response.status).toBe(200);
      const data = (await response.text())
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
      expect(data.length).toBeGreaterThan(0);
      for (const event of data) expect(Object.keys(event).sort()).toEqual(['message', 'timestamp']);
    } finally {
      await sandbox.close();
    }
  });
});

describe('a property the document makes required that the sandbox cannot produce', () => {
  it('stops the sandbox at start-up, with one line naming the schema and the property', async () => {
    const document = edited((schemas) => {
      schemas['Profile']!['properties']['owner_id'] = { type: 'string' };
      schemas['Profile']!['required'].push('owner_id');
    });
    const error = await start({ document }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe(
      'The sandbox cannot start: the document requires Profile.owner_id, which the sandbox does not produce (renameProfile 200).',
    );
    expect(error?.message).not.toContain('\n');
  });

  it('a new optional property is no obstacle: it is simply not sent', async () => {
    const document = edited((schemas) => {
      schemas['Profile']!['properties']['owner_id'] = { type: 'string' };
    });
    expect(() => checkProducedProperties(document)).not.toThrow();
  });

  it('an answer schema the sandbox does not write at all stops it too, naming it', () => {
    const document = edited(() => {});
    const operation = document.paths!['/profiles/{id_or_name}']!['patch'] as Record<string, any>;
    operation['responses']['200']['content']['application/json']['schema'] = {
      $ref: '#/components/schemas/ProxyRefById',
    };
    expect(() => checkProducedProperties(document)).toThrow(
      'The sandbox cannot start: renameProfile answers 200 application/json with ProxyRefById, a schema the sandbox does not produce.',
    );
  });
});

describe('PRODUCED_PROPERTIES', () => {
  it('is what the sandbox code writes', async () => {
    const full: Profile = {
      id: 'prof_1',
      name: 'n',
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-02T00:00:00Z',
      lastUsedAt: '2026-01-03T00:00:00Z',
    } as Profile;
    expect(Object.keys(profileBody(full)).sort()).toEqual([...PRODUCED_PROPERTIES['Profile']!].sort());
    const data = formatLogEvent('1', { timestamp: '2026-01-01T00:00:00Z', message: 'm' }).split('data: ')[1]!;
    expect(Object.keys(JSON.parse(data)).sort()).toEqual([...PRODUCED_PROPERTIES['LogEvent']!].sort());
    expect(
      Object.keys(errorBody('c', 'm', [{ code: 'd' }])).every((key) => PRODUCED_PROPERTIES['Error']!.includes(key)),
    ).toBe(true);
    // A REAUTH (stored credentials) answer carries every property the sandbox writes.
    const sandbox = await start();
    try {
      const started = await login(sandbox, REFS.authConnections.withCredentials);
      expect(Object.keys(started.body as object).sort()).toEqual([...PRODUCED_PROPERTIES['LoginResponse']!].sort());
    } finally {
      await sandbox.close();
    }
  });
});
