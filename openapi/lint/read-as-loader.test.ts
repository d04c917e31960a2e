// Redocly lint reads the YAML itself: conventions/read-as-loader fails where its reading is not
// the loader's, and conventions/copy-aliased-objects lets every rule see every aliased place.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readYaml } from '@browser-cloud/openapi-document';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { readingProblems } from './rules/read-as-loader.js';
import { lintFiles, type Problem, writeDocuments } from './run-redocly.js';

const validText = readFileSync(join(import.meta.dirname, 'fixtures/valid.yaml'), 'utf8');
const RULE = 'conventions/read-as-loader';
/** The line number of the `n`th line appended to the valid fixture (which ends with a line break). */
const appended = (n: number) => validText.split('\n').length - 1 + n;

describe('readingProblems', () => {
  it('finds none when Redocly reads what the loader reads', () => {
    expect(readingProblems(validText, readYaml(validText).data)).toEqual([]);
  });

  it('names the first place where the readings differ, its line and both values', () => {
    const redocly = parse(validText);
    redocly.paths['/things/{id}'].patch.summary = 'Renamed';
    expect(readingProblems(validText, redocly)).toEqual([
      {
        message:
          'Redocly reads /paths/~1things~1{id}/patch/summary (line 21) as "Renamed", the project\'s loader (and every other tool) as "Rename a thing": write it so that both read the same.',
        pointer: '/paths/~1things~1{id}/patch/summary',
      },
    ]);
  });

  it('names each construct the loader refuses, with its line, instead of comparing', () => {
    const text = `${validText}x-base: &base {a: 1}\nx-merged:\n  <<: *base\nx-limit: .inf\n`;
    expect(readingProblems(text, {})).toEqual([
      {
        message: expect.stringMatching(new RegExp(`^merge key \`<<\` at line ${appended(3)}: the merge key`)),
        pointer: '/x-merged/<<',
      },
      {
        message: expect.stringMatching(new RegExp(`^number \\.inf at line ${appended(4)}: \\.inf is a number JSON`)),
        pointer: '/x-limit',
      },
    ]);
  });
});

describe('redocly lint with the repository config', () => {
  const texts: Record<string, string> = {
    // The valid fixture as the yaml package writes it with equal objects shared.
    aliased: (() => {
      const data = parse(validText);
      const security = data.security;
      data.paths['/things/{id}'].patch.security = security;
      return stringify(data);
    })(),
    // One operation object at two paths: a duplicate operationId Redocly would not see.
    operationTwice: validText
      .replace('  /things/{id}:\n    patch:\n', '  /things/{id}:\n    patch: &operation\n')
      .replace('components:\n', '  /others/{id}:\n    patch: *operation\ncomponents:\n'),
    mergeKey: `${validText}x-base: &base {a: 1}\nx-merged:\n  <<: *base\n`,
    hexKey: validText.replace("  '404':\n", '  0x194:\n'),
    yaml11: `%YAML 1.1\n---\n${validText}`,
  };
  let results: Map<string, Problem[]>;
  let files: Record<string, string>;

  beforeAll(async () => {
    files = writeDocuments(Object.fromEntries(Object.keys(texts).map((name) => [name, {}])));
    for (const [name, text] of Object.entries(texts)) writeFileSync(files[name]!, text);
    results = await lintFiles(Object.values(files));
  });

  it('passes a document that shares objects through anchors and aliases', () => {
    expect(readFileSync(files['aliased']!, 'utf8')).toMatch(/security: \*a1\n/);
    expect(results.get(files['aliased']!)).toEqual([]);
  });

  it('checks an aliased operation at each of its places', () => {
    expect(results.get(files['operationTwice']!)).toContainEqual(
      expect.objectContaining({
        ruleId: 'operation-operationId-unique',
        pointer: expect.stringMatching(/^#\/paths\/~1others~1\{id\}\/patch\//),
      }),
    );
  });

  it.each([
    ['mergeKey', new RegExp(`^merge key \`<<\` at line ${appended(3)}: `)],
    ['hexKey', /^key 0x194 at line 56: the key `0x194` is read as the number 404, so its name is "404": quote it\.$/],
    ['yaml11', /^directive %YAML 1\.1 at line 1: /],
  ])('refuses %s, naming the construct and the line', (name, message) => {
    expect(results.get(files[name]!)).toContainEqual(
      expect.objectContaining({ ruleId: RULE, severity: 'error', message: expect.stringMatching(message) }),
    );
  });
});
