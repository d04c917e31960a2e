// Commands of operations whose inputs are not strings, added to a scratch copy of the document:
// what each command line hands the client, typed as the document says, and what it refuses.
import { loadOpenApiDocument, OPENAPI_PATH, type OperationObject } from '@browser-cloud/openapi-document';
import { describe, expect, it, vi } from 'vitest';
import { run } from '../src/program.js';
import { memoryIo } from '../test/memory-io.js';
import { commandDefinitions } from './command-definitions.mjs';

const document = structuredClone(loadOpenApiDocument(OPENAPI_PATH));
const answer = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };
const operation = (operationId: string, rest: Partial<OperationObject>): OperationObject => ({
  operationId,
  summary: `${operationId}\u001b]0;pwned\u0007`,
  description: 'Does it.\u001b[2J',
  tags: ['Browsers'],
  responses: answer,
  ...rest,
});
const body = (properties: object, required: string[]) => ({
  required: true,
  content: { 'application/json': { schema: { type: 'object', properties, required, additionalProperties: false } } },
});
Object.assign(document.paths!, {
  '/browsers/{id}/viewport': {
    put: operation('setViewport', {
      'x-sdk-verb': 'set',
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      requestBody: body({ width: { type: 'integer' }, height: { type: 'integer' } }, ['width', 'height']),
    }),
  },
  '/widgets/{n}': {
    get: operation('getWidget', {
      parameters: [
        { name: 'n', in: 'path', required: true, schema: { type: 'integer' } },
        { name: 'colors', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['red', 'blue'] } } },
        { name: 'sizes', in: 'query', schema: { type: 'array', items: { type: 'integer' } } },
        { name: 'all', in: 'query', schema: { type: 'boolean' } },
        { name: 'no_all', in: 'query', schema: { type: 'string' } },
        { name: 'ratio', in: 'query', schema: { type: 'number' } },
        { name: 'level', in: 'query', schema: { type: 'integer', enum: [1, 2] } },
        { name: 'to_string', in: 'query', schema: { type: 'string' } },
        { name: 'constructor', in: 'query', schema: { type: 'string' } },
        { name: 'version', in: 'query', schema: { type: 'string' } },
        { name: 'X-Depth', in: 'header', schema: { type: 'integer' } },
      ],
    }),
  },
  '/logs/{id}': {
    get: operation('getLog', { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] }),
  },
  '/widgets': {
    post: operation('createWidget', {
      requestBody: body(
        { spec: { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'integer' } } } } } },
        [],
      ),
    }),
  },
});
const commands = commandDefinitions(document);

async function call(argv: string[], client: object) {
  const { io, out } = memoryIo(client);
  const code = await run(argv, io, commands);
  return { code, ...out };
}

/** Whether `text` holds a C0 control character a terminal acts on (tab and line feed are text). */
const hasControl = (text: string) => [...text].some((c) => c.charCodeAt(0) < 0x20 && c !== '\n' && c !== '\t');

describe('commands of inputs typed by the document', () => {
  it('browsers viewport set <id> 1920 1080 sends integers, as its own example says', async () => {
    const set = vi.fn(async () => ({}));
    const result = await call(['browsers', 'viewport', 'set', 'br_1', '1920', '1080'], {
      browsers: { viewport: { set } },
    });
    expect(result.code).toBe(0);
    expect(set).toHaveBeenCalledWith('br_1', { width: 1920, height: 1080 }, expect.anything());
  });

  it('an integer path value, a repeatable enum array, integers, a flag, a number and an integer enum', async () => {
    const get = vi.fn(async () => ({}));
    const argv = ['widgets', 'get', '7', '--colors', 'red', '--colors', 'blue', '--sizes', '1', '--sizes', '2'];
    const more = ['--all', '--no-all', 'x', '--ratio', '0.5', '--level', '2', '--version', '3', '--x-depth', '4'];
    const result = await call([...argv, ...more], { widgets: { get } });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(get).toHaveBeenCalledWith(7, {
      signal: expect.anything(),
      query: { colors: ['red', 'blue'], sizes: [1, 2], all: true, no_all: 'x', ratio: 0.5, level: 2, version: '3' },
      header: { 'X-Depth': 4 },
    });
  });

  it('sends no option named like an Object.prototype member when it is not given', async () => {
    const get = vi.fn(async () => ({}));
    expect((await call(['widgets', 'get', '7'], { widgets: { get } })).code).toBe(0);
    expect(get).toHaveBeenCalledWith(7, { signal: expect.anything() });
    await call(['widgets', 'get', '7', '--to-string', 'a', '--constructor', 'b'], { widgets: { get } });
    expect(get).toHaveBeenLastCalledWith(7, { signal: expect.anything(), query: { to_string: 'a', constructor: 'b' } });
  });

  it('takes an object as JSON, nested', async () => {
    const create = vi.fn(async () => ({}));
    await call(['widgets', 'create', '--spec', '{"a":{"b":1}}'], { widgets: { create } });
    expect(create).toHaveBeenCalledWith({ spec: { a: { b: 1 } } }, expect.anything());
  });

  it.each([
    [
      ['browsers', 'viewport', 'set', 'br_1', 'wide', '1080'],
      "value 'wide' is invalid for argument 'width'. must be an integer.",
    ],
    [['widgets', 'get', 'seven'], "value 'seven' is invalid for argument 'n'. must be an integer."],
    [
      ['widgets', 'get', '7', '--colors', 'green'],
      "option '--colors <colors>' argument 'green' is invalid. must be one of red, blue.",
    ],
    [['widgets', 'get', '7', '--level', '3'], "argument '3' is invalid. must be one of 1, 2."],
    [['widgets', 'get', '7', '--ratio', 'half'], "argument 'half' is invalid. must be a number."],
  ])('%j is bad usage naming the argument and the rule, nothing called', async (argv, message) => {
    const get = vi.fn();
    const result = await call(argv, { widgets: { get }, browsers: { viewport: { set: get } } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(get).not.toHaveBeenCalled();
  });

  it('a logs resource sits beside logs tail; --version before a command is still the version', async () => {
    const get = vi.fn(async () => ({}));
    expect((await call(['logs', 'get', 'l1'], { logs: { get } })).code).toBe(0);
    expect(get).toHaveBeenCalledWith('l1', expect.anything());
    expect((await call(['logs', 'tail', '--help'], {})).stdout).toContain('--source <source>');
    expect((await call(['--version'], {})).stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('shows the document’s text in help with its control characters escaped, and lists choices', async () => {
    const { stdout } = await call(['widgets', 'get', '--help'], {});
    expect(hasControl(stdout)).toBe(false);
    expect(stdout).toContain('getWidget\\u001b]0;pwned\\u0007');
    expect(stdout).toContain('Does it.\\u001b[2J');
    expect(stdout).toMatch(/\(choices: "red",\s+"blue"\)/);
    expect(hasControl((await call(['--help'], {})).stdout)).toBe(false);
  });
});
