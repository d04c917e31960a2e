import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { loadOpenApiDocument, operations } from '@browser-cloud/openapi-document';
import { describe, expect, it } from 'vitest';

/** Minified bundle of an app that imports only `names` from the validators module. */
async function bundle(...names: string[]): Promise<string> {
  const result = await build({
    stdin: {
      contents: `export { ${names.join(', ')} } from './generated/validators/index.js';`,
      resolveDir: dirname(fileURLToPath(import.meta.url)),
      loader: 'ts',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

type Schema = { $ref?: string; properties?: Record<string, unknown>; [key: string]: unknown };
const document = loadOpenApiDocument();
const components = (document.components?.schemas ?? {}) as Record<string, Schema>;

/** The schema's own property names and the components it refers to, in its subschemas too. */
function walk(node: unknown, names: Set<string>, refs: Set<string>): void {
  if (node === null || typeof node !== 'object') return;
  const schema = node as Schema;
  if (typeof schema.$ref === 'string') refs.add(schema.$ref.split('/').at(-1) ?? '');
  for (const name of Object.keys(schema.properties ?? {})) names.add(name);
  for (const child of Object.values(schema.properties ?? {})) walk(child, names, refs);
  for (const key of ['items', 'allOf', 'anyOf', 'oneOf', 'if', 'then', 'else', 'not', 'additionalProperties']) {
    const child = schema[key];
    for (const part of Array.isArray(child) ? child : [child]) walk(part, names, refs);
  }
}

/** Components `name` reaches (itself included): what its validator is compiled from. */
function closure(name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name) || components[name] === undefined) return seen;
  seen.add(name);
  const refs = new Set<string>();
  walk(components[name], new Set(), refs);
  for (const ref of refs) closure(ref, seen);
  return seen;
}

function namesOf(schemas: Iterable<string>): Set<string> {
  const names = new Set<string>();
  for (const schema of schemas) walk(components[schema], names, new Set());
  return names;
}

/**
 * A property name, read from the document, that only the validator of `name` mentions: the
 * longest one it declares that no schema outside what it reaches declares, alone or inside a
 * longer name; else the longest such name of what it reaches (a schema added to the document may
 * declare each of its own, as a drawn `enabled` does).
 */
function markOf(name: string): string {
  const reached = closure(name);
  const outside = [...namesOf(Object.keys(components).filter((other) => !reached.has(other)))];
  const own = (owned: Iterable<string>) =>
    [...namesOf(owned)]
      .filter((candidate) => !outside.some((other) => other.includes(candidate)))
      .sort((a, b) => b.length - a.length)[0];
  const mark = own([name]) ?? own(reached);
  if (mark === undefined) throw new Error(`no property name of ${name} or what it reaches is its own`);
  return mark;
}

const renamePath = [...operations(document)].find((o) => o.operationId === 'renameProfile');
const pathNames = renamePath?.parameters.filter((p) => p.parameter.in === 'path').map((p) => p.parameter.name) ?? [];

/** A property name that only the given schema's validator mentions. */
const marks = {
  ...Object.fromEntries(
    [
      'LoginRequest',
      'BrowserTelemetryRequestConfig',
      'LogStreamQuery',
      'LoginResponse',
      'Profile',
      'LogEvent',
      'Error',
    ].map((name) => [name, markOf(name)]),
  ),
  RenameProfilePath: pathNames.sort((a, b) => b.length - a.length)[0] ?? '',
} as Record<
  | 'LoginRequest'
  | 'BrowserTelemetryRequestConfig'
  | 'LogStreamQuery'
  | 'LoginResponse'
  | 'Profile'
  | 'LogEvent'
  | 'Error'
  | 'RenameProfilePath',
  string
>;

describe('the validators module in a bundle', () => {
  it('marks each validator with a name of its own, read from the document', () => {
    expect(Object.values(marks).every((mark) => mark.length >= 4)).toBe(true);
    expect(new Set(Object.values(marks)).size).toBe(Object.keys(marks).length);
  });

  it('keeps only the validators an app imports', async () => {
    const code = await bundle('validateRenameProfileRequest');
    for (const mark of Object.values(marks)) expect(code).not.toContain(mark);
    expect(code).toContain('maxLength');
  });

  it('keeps what an imported validator references, and nothing else', async () => {
    const code = await bundle('validateLoginRequest');
    expect(code).toContain(marks.LoginRequest);
    expect(code).toContain(marks.BrowserTelemetryRequestConfig);
    for (const name of [
      'LogStreamQuery',
      'LoginResponse',
      'Profile',
      'LogEvent',
      'Error',
      'RenameProfilePath',
    ] as const) {
      expect(code).not.toContain(marks[name]);
    }
  });

  it('compiles a referenced schema once: importing it too adds only an export', async () => {
    const login = await bundle('validateLoginRequest');
    const withParts = await bundle('validateLoginRequest', 'validateProxyRef', 'validateBrowserTelemetryRequestConfig');
    expect(withParts.length - login.length).toBeLessThan(100);
  });

  it('asserts no format, so it carries no format code', async () => {
    const code = await bundle('validateLogEvent', 'validateLoginResponse', 'validateProfile');
    // The schema objects Ajv keeps for error params still say `format`; no code checks it.
    expect(code).not.toMatch(/fullFormats|keyword:"format"/);
  });
});
