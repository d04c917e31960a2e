// The names the operations model keeps free for the client's hand-written code
// (HAND_WRITTEN_NAMES) are those it has: every export of the package that no generator makes is
// listed, and every name its generated modules import from it is too. A name added here and
// not there would let an operation take it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  componentTypeName,
  HAND_WRITTEN_NAMES,
  loadOpenApiDocument,
  operations,
  resourceInterfaceName,
} from '@browser-cloud/openapi-document';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { generateClient } from './client-operations.mjs';

const document = loadOpenApiDocument();
const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Every name `src/index.ts` exports, types included, as the compiler sees them. */
function exportsOfIndex(): string[] {
  const configFile = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
  const config = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
  );
  const program = ts.createProgram([`${SRC}index.ts`], config!.options);
  const checker = program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(`${SRC}index.ts`)!)!;
  return checker.getExportsOfModule(symbol).map((s) => s.getName());
}

/** What the generators name for the repository's document. */
function generatedNames(): Set<string> {
  const names = new Set<string>();
  for (const operation of operations(document)) {
    names.add(operation.names.function);
    for (let depth = 1; depth <= operation.sdk.resource.length; depth++) {
      names.add(resourceInterfaceName(operation.sdk.resource.slice(0, depth)));
    }
    names.add(`${operation.sdk.resource[0]}Resource`);
  }
  names.add('Resources');
  for (const name of Object.keys(document.components?.schemas ?? {})) names.add(componentTypeName(name));
  return names;
}

describe('HAND_WRITTEN_NAMES', () => {
  it('lists every export of @browser-cloud/client that no generator makes', () => {
    const generated = generatedNames();
    // The other components' aliases (`ResponseNotFound`…) and the query objects' unions
    // (`LogStreamQueryBySource`) are derived from component names too.
    const derived = (name: string) =>
      /^(Response|Parameter|Header|RequestBody)[A-Z]/.test(name) || /By[A-Z]/.test(name);
    const handWritten = exportsOfIndex().filter((name) => !generated.has(name) && !derived(name));
    expect(
      handWritten.filter((name) => !(HAND_WRITTEN_NAMES.clientExports as readonly string[]).includes(name)),
    ).toEqual([]);
  });

  it('lists every name the generated modules import from the hand-written client', () => {
    const files = Object.values(generateClient(document)).join('\n');
    const imported = [...files.matchAll(/^import (?:type )?\{([^}]*)\} from '\.\.\/(?:\.\.\/)?[\w-]+\.js';$/gm)]
      .flatMap(([, list]) => list!.split(','))
      .map((name) => name.replace(/^\s*type\s+/, '').trim())
      .filter(Boolean);
    expect(imported.length).toBeGreaterThan(0);
    for (const name of imported) expect(HAND_WRITTEN_NAMES.clientModule, name).toContain(name);
    // And those are the modules' real exports.
    for (const name of HAND_WRITTEN_NAMES.clientModule.filter((n) => !['operations', 'components'].includes(n))) {
      const sources = ['connection', 'event-stream', 'parameters', 'request', 'validation'].map((m) =>
        readFileSync(`${SRC}${m}.ts`, 'utf8'),
      );
      expect(
        sources.some((source) =>
          new RegExp(`export (?:type |interface |(?:async )?function |const |class )?${name}\\b`).test(source),
        ),
        name,
      ).toBe(true);
    }
  });
});
