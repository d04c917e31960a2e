import { loadOpenApiDocument, type OpenApiDocument } from '@browser-cloud/openapi-document';
import { describe, expect, it } from 'vitest';
import { REFS, call, expectError, login, rename, start } from './helpers.js';

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

describe('a value the document adds to an enum', () => {
  it('is a log source the sandbox does not keep: its stream answers 404, not 500', async () => {
    const document = edited((schemas) => {
      schemas['LogStreamQuery']!['properties']['source']['enum'].push('zz_not_in_document');
    });
    const sandbox = await start({ document });
    try {
      const response = await call(
        sandbox,
        'GET',
        `/browsers/${REFS.browsers.main.id}/logs/stream?source=zz_not_in_document`,
      );
      expect(expectError(response, 404, 'not_found').message).toBe(
        `browser ${REFS.browsers.main.id} has no log for source=zz_not_in_document`,
      );
    } finally {
      await sandbox.close();
    }
  });
});

describe('a property the document makes required that the sandbox does not write', () => {
  it('turns the answer into a 500 naming the property: a sandbox bug fails loudly', async () => {
    const document = edited((schemas) => {
      schemas['Profile']!['properties']['zz_not_in_document'] = { type: 'string' };
      schemas['Profile']!['required'].push('zz_not_in_document');
      delete schemas['Profile']!['examples'];
    });
    const sandbox = await start({ document });
    try {
      const renamed = await rename(sandbox, P.defaultProject.id, { name: 'after-addition' });
      expect(renamed.status).toBe(500);
      expect(renamed.body).toMatchObject({
        code: 'internal_error',
        inner_error: { code: 'response_violation', message: expect.stringContaining('zz_not_in_document') },
      });
    } finally {
      await sandbox.close();
    }
  });

  it('a new optional property is no obstacle: it is simply not sent', async () => {
    const document = edited((schemas) => {
      schemas['Profile']!['properties']['zz_not_in_document'] = { type: 'string' };
    });
    const sandbox = await start({ document });
    try {
      const renamed = await rename(sandbox, P.defaultProject.id, { name: 'after-optional' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).not.toHaveProperty('zz_not_in_document');
    } finally {
      await sandbox.close();
    }
  });
});
