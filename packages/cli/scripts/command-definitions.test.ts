import { ConflictError, NotFoundError } from '@browser-cloud/client';
import { loadOpenApiDocument, OPENAPI_PATH, operations } from '@browser-cloud/openapi-document';
import { describe, expect, it, vi } from 'vitest';
import { memoryIo } from '../test/memory-io.js';
import { COMMAND_DEFINITIONS } from '../src/generated/command-definitions.js';
import { run } from '../src/program.js';
import { commandDefinitions } from './command-definitions.mjs';
import PROFILE_RETRIEVE_AND_DELETE from '../../openapi-document/test/profile-retrieve-and-delete.json' with {
  type: 'json',
};

/**
 * A document of the test's own: the repository's, plus the two operations of the service that
 * its official SDK has as `profiles.retrieve` and `profiles.delete`. With only operations added
 * to a document, the generator makes commands that call the client by the calling convention.
 */
const repository = loadOpenApiDocument(OPENAPI_PATH);
const document = structuredClone(repository);
Object.assign(document.paths!['/profiles/{id_or_name}']!, PROFILE_RETRIEVE_AND_DELETE);
const commands = commandDefinitions(document);

describe('the commands generated from the repository’s document', () => {
  it('are the committed ones: a command per operation but its event streams, which special commands cover', () => {
    expect(commandDefinitions(repository)).toEqual(COMMAND_DEFINITIONS);
    expect(COMMAND_DEFINITIONS.map((command) => command.operationId)).toEqual(
      [...operations(repository)].filter((o) => !o.streaming).map((o) => o.operationId),
    );
  });
});

describe('commands generated from a document with operations added', () => {
  it('make profiles get <id-or-name> and profiles delete <id-or-name>, calling profiles.get and profiles.delete', () => {
    expect(commands.map((command) => command.operationId)).toEqual(
      [...operations(document)].filter((o) => !o.streaming).map((o) => o.operationId),
    );
    for (const [operationId, verb] of [
      ['getProfile', 'get'],
      ['deleteProfile', 'delete'],
    ] as const) {
      expect(commands.find((command) => command.operationId === operationId)).toMatchObject({
        command: ['profiles', verb],
        arguments: [{ name: 'id_or_name', in: 'path', flag: 'id-or-name' }],
        options: [],
        call: { sdk: { resource: ['profiles'], verb }, path: ['id_or_name'], body: 'none', query: 'none' },
      });
    }
  });

  const PROFILE = { id: 'prof_1', created_at: '2026-11-22T19:58:03Z', name: 'checkout', zz_not_in_document: 1 };

  it('profiles get calls client.profiles.get(idOrName, { signal }) and prints the profile, or its JSON', async () => {
    const get = vi.fn(async () => PROFILE);
    const { io, out } = memoryIo({ profiles: { get } });
    expect(await run(['profiles', 'get', 'prof_1', '--json'], io, commands)).toBe(0);
    expect(get).toHaveBeenCalledWith('prof_1', { signal: io.interrupt });
    expect(JSON.parse(out.stdout)).toEqual(PROFILE);
    out.stdout = '';
    expect(await run(['profiles', 'get', 'checkout'], io, commands)).toBe(0);
    expect(out.stdout).toBe('id: prof_1\ncreated_at: 2026-11-22T19:58:03Z\nname: checkout\nzz_not_in_document: 1\n');
  });

  it('profiles delete calls client.profiles.delete(idOrName, { signal }) and says it was done', async () => {
    const remove = vi.fn(async () => undefined);
    const { io, out } = memoryIo({ profiles: { delete: remove } });
    expect(await run(['profiles', 'delete', 'prof_1'], io, commands)).toBe(0);
    expect(remove).toHaveBeenCalledWith('prof_1', { signal: io.interrupt });
    expect(out).toEqual({ stdout: 'Delete a profile: done.\n', stderr: '' });
  });

  it('their failures exit with the codes of the README’s table', async () => {
    const failing = (error: Error) => memoryIo({ profiles: { delete: async () => Promise.reject(error) } });
    const missing = failing(
      new NotFoundError({ status: 404, headers: new Headers(), body: { code: 'not_found', message: 'gone' } }),
    );
    expect(await run(['profiles', 'delete', 'prof_1'], missing.io, commands)).toBe(5);
    expect(missing.out.stderr).toBe('browser-cloud: 404 not_found: gone\n');
    const conflict = failing(new ConflictError({ status: 409, headers: new Headers() }));
    expect(await run(['profiles', 'delete', 'prof_1', '--json'], conflict.io, commands)).toBe(6);
    expect(JSON.parse(conflict.out.stderr)).toMatchObject({ error: { type: 'ConflictError', status: 409 } });
    // A missing argument is bad usage, before any call.
    expect(await run(['profiles', 'delete'], missing.io, commands)).toBe(2);
  });

  it('have help from the document: usage, summary and an example from its path parameter', async () => {
    const { io, out } = memoryIo({});
    expect(await run(['profiles', 'get', '--help'], io, commands)).toBe(0);
    expect(out.stdout).toMatch(/^Usage: browser-cloud profiles get \[options\] <id-or-name>\n\nRetrieve a profile\n/);
    expect(out.stdout).toContain('Examples:\n  $ browser-cloud profiles get prof_01HZY5C7D9E1F3G5H7J9K1M3NA\n');
  });

  it('with a client older than the document: exit 1 naming the method it lacks', async () => {
    const { io, out } = memoryIo({ profiles: {} });
    expect(await run(['profiles', 'get', 'prof_1'], io, commands)).toBe(1);
    expect(out.stderr).toBe(
      'browser-cloud: This client has no method profiles.get: it is older than the document of this call\n',
    );
  });
});
