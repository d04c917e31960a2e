// A resource added to the document alone (profiles' create, paged list, read and delete, in a
// scratch copy): what its commands create reads back through its commands, from the sandbox serving
// the copy, with the client generated from it; a taken name exits as a conflict does. The list
// answers an array in one copy, an object holding it in the other. Every command, argument and
// option comes from the operations and resource models of the copy.
import type { Operation } from '@browser-cloud/openapi-document';
import { type RunningSandbox, startSandbox } from '@browser-cloud/sandbox';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ListShape, profilesResource } from '../../../openapi/test-support/profiles-crud.js';
import { profilesCrudClient } from '../../client/src/test-support/profiles-crud-client.js';
import type { CommandDefinition } from '../src/command-definition.js';
import { commandDefinitions } from './command-definitions.mjs';

describe.each<ListShape>(['array', 'envelope'])(
  'a profile created through the CLI, its list answering an %s',
  (shape) => {
    let scratch: Awaited<ReturnType<typeof profilesCrudClient>>;
    let model: ReturnType<typeof profilesResource>;
    let definitions: CommandDefinition[];
    let sandbox: RunningSandbox;
    let client: object;
    let cliModules: {
      run: typeof import('../src/program.js').run;
      EXIT: typeof import('../src/exit-codes.js').EXIT;
      memoryIo: typeof import('../test/memory-io.js').memoryIo;
    };

    beforeAll(async () => {
      scratch = await profilesCrudClient(shape);
      model = profilesResource(scratch.document);
      definitions = commandDefinitions(scratch.document);
      // The CLI imports the client generated from the copy, as a build from that copy would give
      // it: the CLI picks an exit code by the client's error classes.
      vi.resetModules();
      vi.doMock('@browser-cloud/client', () => scratch.module);
      const [{ run }, { EXIT }, { memoryIo }] = await Promise.all([
        import('../src/program.js'),
        import('../src/exit-codes.js'),
        import('../test/memory-io.js'),
      ]);
      cliModules = { run, EXIT, memoryIo };
      sandbox = await startSandbox({ port: 0, document: scratch.document, quiet: true });
      client = scratch.module.createClient({ baseUrl: sandbox.url, token: sandbox.fixture.tokens.owner });
    }, 120_000);

    afterAll(async () => {
      await sandbox?.close();
      scratch?.remove();
      vi.doUnmock('@browser-cloud/client');
      vi.resetModules();
    });

    /** The command line of `operation`: its words, then `positional` by the definition's arguments, then `options` by input name. */
    function argv(operation: Operation, positional: Record<string, string>, options: Record<string, number> = {}) {
      const definition = definitions.find((d) => d.command.join(' ') === operation.names.command.join(' '))!;
      expect(definition.arguments.map((a) => a.name).sort()).toEqual(Object.keys(positional).sort());
      const flags = Object.entries(options).flatMap(([name, value]) => [
        `--${definition.options.find((option) => option.name === name)!.flag}`,
        String(value),
      ]);
      return [...operation.names.command, ...definition.arguments.map((a) => positional[a.name]!), ...flags];
    }

    /** Runs the CLI with the scratch client; `--json` answers are parsed. */
    async function cli(args: string[]) {
      const { io, out } = cliModules.memoryIo(client);
      const code = await cliModules.run(args, io, definitions);
      return { code, ...out, answer: () => JSON.parse(out.stdout) as unknown };
    }

    it('is listed (one per page, at its place), read by id and by name, a conflict when created again, and gone once deleted', async () => {
      const { EXIT } = cliModules;
      const { resource, crud, paging, itemParameter: item, itemsOf } = model;
      const name = `read-back-cli-${shape}`;
      const nameField = resource.nameField!;
      const limit = paging.limit!;
      const made = await cli([...argv(crud.create, { [nameField]: name }), '--json']);
      expect(made).toMatchObject({ code: EXIT.ok, stderr: '' });
      const created = made.answer() as Record<string, unknown>;
      const id = created[resource.idField] as string;
      expect(id).toMatch(new RegExp(`^${resource.idPrefix}`));
      expect(created[nameField]).toBe(name);

      const everything = await cli([...argv(crud.list, {}, { [limit]: 100 }), '--json']);
      const all = itemsOf(everything.answer());
      const at = all.findIndex((entry) => entry[resource.idField] === id);
      expect(at).toBe(all.length - 1);
      const page = await cli([...argv(crud.list, {}, { [limit]: 1, [paging.offset!]: at }), '--json']);
      expect(page.code).toBe(EXIT.ok);
      expect(itemsOf(page.answer())).toEqual([created]);

      for (const value of [id, name]) {
        const got = await cli([...argv(crud.read, { [item]: value }), '--json']);
        expect(got.code).toBe(EXIT.ok);
        expect(got.answer()).toEqual(created);
      }
      // Without --json, people read it as key: value lines.
      expect((await cli(argv(crud.read, { [item]: id }))).stdout).toContain(`${nameField}: ${name}\n`);

      const again = await cli(argv(crud.create, { [nameField]: name }));
      expect(again.code).toBe(EXIT.conflict);
      expect(again.stdout).toBe('');
      expect(again.stderr).toMatch(
        new RegExp(
          `^browser-cloud: 409 conflict: a ${resource.noun} named "${name}" already exists.*\\n  request ID: req_`,
        ),
      );
      const asJson = await cli([...argv(crud.create, { [nameField]: name }), '--json']);
      expect(asJson.code).toBe(EXIT.conflict);
      expect(JSON.parse(asJson.stderr)).toMatchObject({
        error: { type: 'ConflictError', status: 409, code: 'conflict' },
      });
      expect(itemsOf((await cli([...argv(crud.list, {}, { [limit]: 100 }), '--json'])).answer())).toEqual(all);

      expect((await cli(argv(crud.delete, { [item]: id }))).code).toBe(EXIT.ok);
      const gone = await cli(argv(crud.read, { [item]: id }));
      expect(gone.code).toBe(EXIT.notFound);
      expect(gone.stderr).toMatch(/^browser-cloud: 404 /);
    });
  },
);
