import { describe, expect, it, vi } from 'vitest';
import { HAND_WRITTEN_NAMES } from '@browser-cloud/openapi-document';
import { memoryIo } from '../test/memory-io.js';
import type { CommandDefinition, CommandOption } from './command-definition.js';
import { run } from './program.js';

const option = (flag: string, rest: Partial<CommandOption>): CommandOption => ({
  flag,
  in: 'body',
  name: flag.replaceAll('-', '_'),
  description: `the ${flag}`,
  type: 'string',
  ...rest,
});

/** A command of the test's own, with an option of each kind. */
const ZZ: CommandDefinition = {
  operationId: 'moveZz',
  command: ['zz', 'things', 'move'],
  group: 'Zz things.',
  summary: 'Move a zz',
  help: '\nExamples:\n  $ browser-cloud zz things move 1',
  call: { sdk: { resource: ['zz', 'things'], verb: 'move' }, path: ['zz_id'], body: 'optional', query: 'positional' },
  arguments: [{ name: 'zz_id', in: 'path', flag: 'zz-id', type: 'string', description: 'the zz' }],
  options: [
    option('zz-flag', { type: 'boolean' }),
    option('zz-count', { type: 'integer', in: 'query' }),
    option('zz-mode', { choices: ['fast', 'slow'] }),
    option('zz-object', { type: 'json' }),
    option('zz-either', { type: 'json', text: true }),
    option('zz-telemetry', { type: 'json', schema: 'BrowserTelemetryRequestConfig' }),
    option('zz-ref-id', { name: 'zz_ref', member: 'id' }),
    option('zz-ref-name', { name: 'zz_ref', member: 'name' }),
  ],
};

async function move(argv: string[], answer?: unknown) {
  const moved = vi.fn(async () => answer);
  const { io, out } = memoryIo({ zz: { things: { move: moved } } });
  const code = await run(['zz', 'things', 'move', ...argv], io, [ZZ]);
  return { code, ...out, calls: moved.mock.calls as unknown[][], signal: io.interrupt };
}

describe('a generated command', () => {
  it('calls the method by the convention: path values, the body, the query, the options', async () => {
    const result = await move(['7', '--zz-flag', '--zz-count', '3', '--zz-mode', 'fast', '--zz-ref-name', 'n']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.calls).toEqual([
      ['7', { zz_flag: true, zz_mode: 'fast', zz_ref: { name: 'n' } }, { zz_count: 3 }, { signal: result.signal }],
    ]);
  });

  it('sends nothing for an option not given: no body at all without one', async () => {
    expect((await move(['7'])).calls).toEqual([['7', undefined, {}, expect.anything()]]);
    expect((await move(['7', '--no-zz-flag'])).calls[0]?.[1]).toEqual({ zz_flag: false });
  });

  it('takes an object option as JSON, or in the syntax of the parser of its schema', async () => {
    const json = await move(['7', '--zz-object', '{"a":[1]}', '--zz-telemetry', 'on,console']);
    expect(json.calls[0]?.[1]).toEqual({
      zz_object: { a: [1] },
      zz_telemetry: { enabled: true, browser: { console: { enabled: true } } },
    });
    expect((await move(['7', '--zz-telemetry', 'null'])).calls[0]?.[1]).toEqual({ zz_telemetry: null });
  });

  it('takes text that is not JSON as the string a schema allows, and refuses it where none is allowed', async () => {
    const given = await move(['7', '--zz-either', 'plain words', '--zz-object', '{}']);
    expect(given.calls[0]?.[1]).toEqual({ zz_either: 'plain words', zz_object: {} });
    expect((await move(['7', '--zz-either', '12'])).calls[0]?.[1]).toEqual({ zz_either: 12 });
    expect((await move(['7', '--zz-either', '"12"'])).calls[0]?.[1]).toEqual({ zz_either: '12' });
    const refused = await move(['7', '--zz-object', 'plain']);
    expect(refused.calls).toEqual([]);
    expect(refused.stderr).toContain("option '--zz-object <json>' argument 'plain' is invalid. must be JSON.");
    const { io, out } = memoryIo({});
    await run(['zz', 'things', 'move', '--help'], io, [ZZ]);
    expect(out.stdout).toContain('--zz-either <json|text>');
    expect(out.stdout).toContain('--zz-object <json>');
  });

  it('both members of a flattened oneOf make one object, which the client refuses with its own message', async () => {
    expect((await move(['7', '--zz-ref-id', 'i', '--zz-ref-name', 'n'])).calls[0]?.[1]).toEqual({
      zz_ref: { id: 'i', name: 'n' },
    });
  });

  it.each([
    [['--zz-count', 'three'], "option '--zz-count <zz-count>' argument 'three' is invalid. must be an integer."],
    [['--zz-object', '{a'], "option '--zz-object <json>' argument '{a' is invalid. must be JSON."],
    [['--zz-mode', 'zz_not_in_document'], "argument 'zz_not_in_document' is invalid. must be one of fast, slow."],
    [['--zz-not-in-document'], "unknown option '--zz-not-in-document'"],
  ])('%j is bad usage, exit 2, nothing called', async (args, message) => {
    const result = await move(['7', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.calls).toEqual([]);
  });
});

describe('the answer, for people', () => {
  it('an object is key: value lines, nested values as JSON, what the server sent escaped', async () => {
    const result = await move(['7'], { id: 'z1', 'a\u001b[2J': 'x\u001b]0;pwned\u0007', nested: { b: null }, n: 2 });
    expect(result.stdout).toBe('id: z1\na\\u001b[2J: x\\u001b]0;pwned\\u0007\nnested: {"b":null}\nn: 2\n');
  });

  it('another value is one line; no answer says it was done; --json is the answer as it came', async () => {
    expect((await move(['7'], ['a', 'b'])).stdout).toBe('["a","b"]\n');
    expect((await move(['7'], undefined)).stdout).toBe('Move a zz: done.\n');
    expect((await move(['7', '--json'], undefined)).stdout).toBe('');
    expect((await move(['7', '--json'], { a: '\u009b' })).stdout).toBe('{"a":"\\u009b"}\n');
  });
});

describe('names an operation may not take from the CLI', () => {
  it('an option named like what every object has (--to-string, --constructor) is sent only when given', async () => {
    const definition: CommandDefinition = {
      ...ZZ,
      options: [option('to-string', { name: 'to_string' }), option('constructor', {})],
    };
    const moved = vi.fn(async (..._args: unknown[]) => undefined);
    const { io } = memoryIo({ zz: { things: { move: moved } } });
    expect(await run(['zz', 'things', 'move', '7'], io, [definition])).toBe(0);
    expect(moved.mock.calls[0]?.[1]).toBeUndefined();
    expect(await run(['zz', 'things', 'move', '7', '--constructor', 'c'], io, [definition])).toBe(0);
    expect(moved.mock.calls[1]?.[1]).toEqual({ constructor: 'c' });
  });

  it('a generated command in the group logs sits beside the hand-written logs tail', async () => {
    const listed = vi.fn(async () => ({ ok: true }));
    const definition: CommandDefinition = {
      ...ZZ,
      command: ['logs', 'list'],
      call: { ...ZZ.call, sdk: { resource: ['logs'], verb: 'list' } },
      options: [],
    };
    const { io, out } = memoryIo({ logs: { list: listed } });
    expect(await run(['logs', 'list', '7', '--json'], io, [definition]), out.stderr).toBe(0);
    expect(listed).toHaveBeenCalledTimes(1);
    const help = memoryIo({});
    await run(['logs', '--help'], help.io, [definition]);
    expect(help.out.stdout).toMatch(/\blist\b[\s\S]*\btail\b/);
  });

  it("are the model's HAND_WRITTEN_NAMES: the program's own commands and options", async () => {
    const { io, out } = memoryIo({});
    await run(['--help'], io, []);
    const section = out.stdout.split('Commands:')[1]!.split('\n\n')[0]!;
    const commands = [...section.matchAll(/^ {2}(\S+)/gm)].map(([, name]) => name);
    expect(commands.length).toBeGreaterThan(0);
    const options = [...out.stdout.split('Commands:')[0]!.matchAll(/--([\w-]+)/g)].map(([, name]) => name);
    const groups = HAND_WRITTEN_NAMES.cliCommands.map((path) => path.split(' ')[0]);
    expect(commands.filter((name) => !groups.includes(name!))).toEqual([]);
    // --version is the program's only before a command: after one, an input may take it.
    const everyCommands = options.filter((name) => name !== 'version');
    expect(
      everyCommands.filter((name) => !(HAND_WRITTEN_NAMES.cliOptions as readonly string[]).includes(name!)),
    ).toEqual([]);
  });
});
