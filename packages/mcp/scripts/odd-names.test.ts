// Tools of operations named like Object.prototype members, generated from a scratch copy of the
// document and read back as the generated module is: every name its own, nothing dropped.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOpenApiDocument, OPENAPI_PATH, operations } from '@browser-cloud/openapi-document';
import { describe, expect, it } from 'vitest';
import { sortArguments } from '../src/tool-arguments.js';
import type { ToolDefinition } from '../src/tool-definition.js';
import { generateArtifacts, toolDefinitions } from './tool-definitions.mjs';

const document = structuredClone(loadOpenApiDocument(OPENAPI_PATH));
Object.assign(document.paths!, {
  '/things': {
    get: {
      operationId: 'constructor',
      'x-sdk-verb': 'list',
      summary: 'List things',
      tags: ['Browsers'],
      parameters: [
        { name: '__proto__', in: 'query', schema: { type: 'string' } },
        { name: 'count', in: 'query', schema: { type: 'array', items: { type: 'integer' } } },
      ],
      responses: {
        '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: {} } } } },
      },
    },
  },
});

/** The tools as the generated module holds them: the literal `generateArtifacts` writes, evaluated. */
async function generatedTools(): Promise<Record<string, ToolDefinition>> {
  const folder = mkdtempSync(join(tmpdir(), 'odd-names-'));
  try {
    writeFileSync(join(folder, 'openapi.json'), JSON.stringify(document));
    const [file] = await generateArtifacts(join(folder, 'openapi.json'));
    const literal = /TOOL_DEFINITIONS = (\{[\s\S]*\}) satisfies/.exec(file!.contents)![1];
    // The literal is TypeScript: its `as const` (a string under an inherited key) is not JavaScript.
    return new Function(`return ${literal!.replace(/ as const(?=,?$)/gm, '')};`)();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('tools of odd names', async () => {
  const tools = await generatedTools();
  // The model's name for it (`constructor_`, as every generated name of an Object.prototype member).
  const name = [...operations(document)].find((o) => o.operationId === 'constructor')!.names.tool;
  const tool = tools[name]!;

  it('makes the tool of the operation constructor, with the query parameter __proto__ as an own argument', () => {
    expect(Object.hasOwn(tools, name)).toBe(true);
    expect(tool.operationId).toBe('constructor');
    expect(Object.hasOwn(tool.inputSchema.properties, '__proto__')).toBe(true);
    expect(tool.inputSchema.properties['count']).toEqual({ type: 'array', items: { type: 'integer' } });
    expect(tool.locations).toEqual(JSON.parse('{"__proto__":"query","count":"query"}'));
    expect(tool.answer).toBe('value');
  });

  it('sorts a __proto__ argument into the query, where the client writes it', () => {
    const sorted = sortArguments(tool, JSON.parse('{"__proto__":"x","count":[1,2]}'));
    expect(Object.entries(sorted.query)).toEqual([
      ['__proto__', 'x'],
      ['count', [1, 2]],
    ]);
  });

  it('names both operations when two make one tool', () => {
    const twice = structuredClone(document);
    twice.paths!['/things']!.post = { ...twice.paths!['/things']!.get!, 'x-sdk-verb': 'make' };
    // Both, each with its pointer (the same operationId twice is the model's to refuse).
    expect(() => toolDefinitions(twice)).toThrow(
      /the operation constructor \(\/paths\/~1things\/post\) makes the MCP tool constructor_, which the operation constructor \(\/paths\/~1things\/get\)/,
    );
  });
});
