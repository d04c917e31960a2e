import { describe, expect, it } from 'vitest';
import { readYaml, YamlReadError } from './read-yaml.js';

/** What `readYaml` refuses in `text`: the problems of the YamlReadError it throws, else none. */
function yamlProblems(text: string): YamlReadError['problems'] {
  try {
    readYaml(text);
    return [];
  } catch (error) {
    if (error instanceof YamlReadError) return error.problems;
    throw error;
  }
}

describe('readYaml reads every style of the same content alike', () => {
  const content = {
    name: 'renameProfile',
    tags: ['Profiles', 'Auth'],
    stream: 'id: 1\ndata: {"a":1}\n\nid: 2\ndata: {"a":2}\n\n',
    nested: { count: 2, on: true, none: null, ratio: 0.5, big: 12345678901234567000 },
    '200': 'ok',
  };
  const styles: Record<string, string> = {
    json: JSON.stringify(content),
    block: [
      'name: renameProfile',
      'tags:',
      '  - Profiles',
      '  - Auth',
      'stream: |+',
      '  id: 1',
      '  data: {"a":1}',
      '',
      '  id: 2',
      '  data: {"a":2}',
      '',
      'nested:',
      '  count: 2',
      '  on: true',
      '  none: ~',
      '  ratio: .5',
      '  big: 12345678901234567890',
      '200: ok',
      '',
    ].join('\n'),
    flowAndQuotes: `{"200": 'ok', nested: {big: 12345678901234567890, ratio: 5e-1, none: null, on: True, count: 0x2}, stream: "id: 1\\ndata: {\\"a\\":1}\\n\\nid: 2\\ndata: {\\"a\\":2}\\n\\n", tags: [Profiles, "Auth"], name: 'renameProfile'}\n`,
  };

  it.each(Object.keys(styles))('%s', (style) => {
    expect(readYaml(styles[style]!).data).toEqual(content);
  });

  it('reads block scalars by their chomping: keep (|+), clip (|) and strip (|-)', () => {
    const text = 'keep: |+\n  a\n\n\nclip: |\n  a\n\n\nstrip: |-\n  a\n\nfolded: >\n  a\n  b\n\n  c\n';
    expect(readYaml(text).data).toEqual({ keep: 'a\n\n\n', clip: 'a\n', strip: 'a', folded: 'a b\nc\n' });
  });

  it('copies an aliased object to each place, so that no two places share one', () => {
    const { data } = readYaml('a: &shared {k: [1, {deep: true}]}\nb: *shared\nc: [*shared]\n') as {
      data: Record<string, any>;
    };
    expect(data['b']).toEqual(data['a']);
    expect(data['b']).not.toBe(data['a']);
    expect(data['c'][0]).not.toBe(data['a']);
    expect(data['b'].k[1]).not.toBe(data['a'].k[1]);
  });

  it('reads -0 as 0, which is what JSON holds', () => {
    expect(Object.is((readYaml('n: -0\n').data as { n: number }).n, 0)).toBe(true);
  });
});

describe('readYaml refuses what the YAML readers of the toolchain read differently, naming the construct and the line', () => {
  it.each([
    ['a merge key', 'base: &b {a: 1}\nx:\n  <<: *b\n', 'merge key `<<`', 3, '/x/<<'],
    ['a %YAML 1.1 directive', '%YAML 1.1\n---\na: yes\n', 'directive %YAML 1.1', 1, undefined],
    ['!!binary', 'a:\n  b: !!binary aGk=\n', 'tag !!binary', 2, '/a/b'],
    ['!!set', 'a: !!set {x, y}\n', 'tag !!set', 1, '/a'],
    ['!!timestamp', 'a: !!timestamp 2026-01-01\n', 'tag !!timestamp', 1, '/a'],
    ['a local tag', 'a: [!thing x]\n', 'tag !thing', 1, '/a/0'],
    ['.inf', 'a: .inf\n', 'number .inf', 1, '/a'],
    ['.nan', 'a: .NaN\n', 'number .NaN', 1, '/a'],
    ['even a core tag', 'a: !!float 1\n', 'tag !!float', 1, '/a'],
    ['a hex key', 'a: {0x10: b}\n', 'key 0x10', 1, '/a/16'],
    ['a float key', '1.0: a\n', 'key 1.0', 1, '/1'],
    ['a capitalised boolean key', 'True: a\n', 'key True', 1, '/true'],
    ['a null key', '~: a\n', 'null key ~', 1, '/null'],
    ['an empty key', ': a\n', 'empty key', 1, '/null'],
    ['a collection key', '? [a, b]\n: c\n', 'complex key', 1, '/?'],
    ['an alias key', 'x: &k name\n*k : c\n', 'alias key *k', 2, '/?'],
    ['an alias inside its own anchor', 'a: &loop {self: *loop}\n', 'alias *loop', 1, '/a/self'],
  ])('%s', (_name, text, construct, line, pointer) => {
    const problems = yamlProblems(text);
    expect(problems).toEqual([expect.objectContaining({ construct, line })]);
    expect(problems[0]?.pointer).toBe(pointer);
    expect(() => readYaml(text)).toThrow(YamlReadError);
  });

  it('accepts what every reader reads alike: plain integer and boolean keys, a quoted `<<`, YAML 1.2 words', () => {
    const text = '200: a\ntrue: b\n"<<": c\nd: yes\ne: 0o17\n';
    expect(yamlProblems(text)).toEqual([]);
    expect(readYaml(text).data).toEqual({ '200': 'a', true: 'b', '<<': 'c', d: 'yes', e: 15 });
    expect(yamlProblems('%YAML 1.2\n---\na: 1\n')).toEqual([]);
  });

  it('reports every problem in line order, and syntax errors as such', () => {
    const error = (() => {
      try {
        readYaml('a: .inf\nb: !!binary aGk=\nc: {1.0: x}\n');
      } catch (caught) {
        return caught as YamlReadError;
      }
      throw new Error('readYaml did not throw');
    })();
    expect(error.problems.map((p) => [p.line, p.construct])).toEqual([
      [1, 'number .inf'],
      [2, 'tag !!binary'],
      [3, 'key 1.0'],
    ]);
    expect(error.message).toMatch(/^line 1, column 4: \.inf is a number JSON cannot hold/);
    expect(yamlProblems('a: 1\na: 2\n')).toEqual([expect.objectContaining({ construct: 'syntax', line: 2 })]);
    expect(yamlProblems('a: 1\n---\nb: 2\n')).toEqual([expect.objectContaining({ construct: 'syntax', line: 2 })]);
  });
});

describe('readYaml().locate: where a pointer is written', () => {
  const text = [
    'components:', //                1
    '  schemas:', //                 2
    '    Error: &error', //          3
    '      type: object', //         4
    '      properties:', //          5
    '        code: {type: string}', // 6
    'paths:', //                     7
    '  /a:', //                      8
    '    get:', //                   9
    '      responses:', //           10
    '        "404": *error', //      11
    '      tags: [x, y]', //         12
    '',
  ].join('\n');
  const { locate } = readYaml(text);

  it('places a value where it starts, a block map on the line after its key', () => {
    expect(locate('#/components/schemas/Error')).toEqual({ line: 4, column: 7 });
    expect(locate('/components/schemas/Error/type')).toEqual({ line: 4, column: 13 });
    expect(locate('/paths/~1a/get/tags/1')).toEqual({ line: 12, column: 17 });
  });

  it('places an alias where it is used, and what is under it in the anchor', () => {
    expect(locate('/paths/~1a/get/responses/404')).toEqual({ line: 11, column: 16 });
    expect(locate('/paths/~1a/get/responses/404/properties/code/type')).toEqual({ line: 6, column: 22 });
  });

  it('places a pointer that goes nowhere at the deepest value that exists', () => {
    expect(locate('/paths/~1a/get/nothing/here')).toEqual({ line: 10, column: 7 });
    expect(locate('/paths/~1a/get/tags/7')).toEqual({ line: 12, column: 13 });
    expect(locate('')).toEqual({ line: 1, column: 1 });
  });
});
