import { ValidationError } from '@browser-cloud/client';
import { describe, expect, it } from 'vitest';
import { TOOL_DEFINITIONS } from './generated/tool-definitions.js';
import { sortArguments } from './tool-arguments.js';
import type { ToolDefinition } from './tool-definition.js';

/** The log tail: a tool with arguments of its own, defaulted by their schema. */
const tail = TOOL_DEFINITIONS.tail_browser_logs;
/** A tool of the test's own, with a path and a body argument. */
const zz = {
  name: 'zz_not_in_document',
  inputSchema: { type: 'object', properties: { zz_id: { type: 'string' }, zz_name: { type: 'string' } }, required: [] },
  locations: { zz_id: 'path', zz_name: 'body' },
} as unknown as ToolDefinition;

function refusal(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('no ValidationError');
}

describe('sortArguments', () => {
  it('sorts arguments by where they go, and fills in the tool’s defaults', () => {
    expect(sortArguments(tail, { id: 'br_1', source: 'path', path: '/x.log', follow: true, cursor: '4' })).toEqual({
      path: { id: 'br_1' },
      query: { source: 'path', path: '/x.log', follow: true },
      header: {},
      body: {},
      tool: { cursor: '4', max_events: 100, max_bytes: 65536, wait_ms: 10000 },
    });
    expect(sortArguments(zz, { zz_id: 'a', zz_name: 'b' })).toEqual({
      path: { zz_id: 'a' },
      query: {},
      header: {},
      body: { zz_name: 'b' },
      tool: {},
    });
  });

  it('leaves the document’s rules to the client: wrong types pass through to it', () => {
    expect(sortArguments(zz, { zz_id: 5, zz_name: null })).toMatchObject({
      path: { zz_id: 5 },
      body: { zz_name: null },
    });
  });

  it('refuses unknown arguments, naming each', () => {
    const error = refusal(() => sortArguments(tail, { id: 'br_1', lines: 5, since: 'x' }));
    expect(error.issues.map((issue) => issue.message)).toEqual([
      'lines: is not an argument of tail_browser_logs',
      'since: is not an argument of tail_browser_logs',
    ]);
    expect(error).toMatchObject({ field: 'lines', rule: 'additionalProperties' });
  });

  it.each([
    [{ max_events: 0 }, 'max_events: must be >= 1', 'minimum'],
    [{ max_events: 1.5 }, 'max_events: must be integer', 'type'],
    [{ max_bytes: 10 }, 'max_bytes: must be >= 1024', 'minimum'],
    [{ wait_ms: 60_000 }, 'wait_ms: must be <= 30000', 'maximum'],
    // The shared renderer quotes the pattern as JSON, as the client and the sandbox do.
    [{ cursor: 'a\nb' }, String.raw`cursor: must match pattern "^[^\\r\\n\\u0000]*$"`, 'pattern'],
    [{ cursor: 7 }, 'cursor: must be string', 'type'],
  ])('checks the tool’s own arguments: %j', (args, message, rule) => {
    const error = refusal(() => sortArguments(tail, { id: 'br_1', ...args }));
    expect(error.message).toBe(message);
    expect(error.rule).toBe(rule);
  });

  it('takes no arguments as none', () => {
    expect(sortArguments(zz, undefined)).toEqual({
      path: {},
      query: {},
      header: {},
      body: {},
      tool: {},
    });
  });
});

describe('sortArguments, on names that Object.prototype has', () => {
  it('sorts an argument named __proto__ or constructor into its place as an own property', () => {
    const odd = {
      ...zz,
      locations: JSON.parse('{"__proto__":"query","constructor":"body"}'),
    } as ToolDefinition;
    const sorted = sortArguments(odd, JSON.parse('{"__proto__":"x","constructor":"y"}'));
    expect(Object.hasOwn(sorted.query, '__proto__')).toBe(true);
    expect(Object.entries(sorted.query)).toEqual([['__proto__', 'x']]);
    expect(Object.getPrototypeOf(sorted.query)).toBe(Object.prototype);
    expect(sorted.body).toEqual({ constructor: 'y' });
  });

  it('refuses them as unknown arguments, own properties only, __proto__ included', () => {
    for (const name of ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__']) {
      // As JSON.parse makes them: `__proto__` an own property, not the prototype.
      const args = JSON.parse(`{"id":"br_1","source":"path","path":"/x.log",${JSON.stringify(name)}:{"a":1}}`);
      const error = refusal(() => sortArguments(tail, args));
      expect(error.message).toBe(`${name}: is not an argument of tail_browser_logs`);
    }
  });
});
