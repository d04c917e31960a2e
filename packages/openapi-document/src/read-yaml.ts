import { type Document, isAlias, isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import { formatPointer, parsePointer } from './json-pointer.js';

/** A place in the YAML text, 1-based, as editors and Redocly count. */
export interface YamlPosition {
  readonly line: number;
  readonly column: number;
}

/** A syntax error, or a construct that the YAML readers of the toolchain read differently (see `readYaml`). */
export interface YamlProblem extends YamlPosition {
  /** The construct, as a reader would name it: `merge key \`<<\``, `tag !!binary`, `syntax`… */
  readonly construct: string;
  readonly message: string;
  /** Where the problem sits in the data, when it has a place there. */
  readonly pointer?: string;
}

/** The document as the project reads it: plain JSON data, and where each pointer is written. */
export interface YamlReading {
  /** A fresh tree: every alias is a copy of its anchor, so no two places share an object. */
  readonly data: unknown;
  /**
   * Where the value at `pointer` starts in the text (an alias where it is used; past an alias,
   * in its anchor), as Redocly places locations; the deepest place that exists.
   */
  locate(pointer: string): YamlPosition;
}

/**
 * Parses YAML the way every tool of the project gets the document: YAML 1.2, core schema, no
 * merge keys, unique keys; the result is JSON data.
 * @throws YamlReadError naming, with its line, every syntax error and every construct that a YAML
 *   reader of the toolchain reads otherwise than the project's loader (tried on `yaml` 2.9, Redocly
 *   CLI 2.77's js-yaml and Prism 5.14's @stoplight/yaml):
 * - a `%YAML` directive other than 1.2: `yaml` then reads `yes` as true and `0777` as octal;
 * - a merge key `<<`: js-yaml merges the aliased map in, `yaml` keeps a key named `<<`;
 * - a tag (`!!binary`, `!local`, even `!!float`): values JSON cannot hold, an error in one
 *   reader and a string in another, or `!!float 1` the string "1" here and the number 1 in js-yaml;
 * - `.inf`, `.nan`: numbers JSON cannot hold;
 * - a mapping key that is not a string as written: a collection, an alias, a null (`~`, which
 *   one reader calls `""` and another `"null"`), or a plain scalar read as another number or
 *   boolean than its text (`0x10` is the key `"16"`, `True` the key `"true"`);
 * - an alias inside its own anchor (a cycle, which JSON cannot hold).
 */
export function readYaml(text: string): YamlReading {
  const lineCounter = new LineCounter();
  // logLevel 'error', not 'silent', which would also drop the error for a second document.
  const document = parseDocument(text, {
    lineCounter,
    version: '1.2',
    schema: 'core',
    merge: false,
    uniqueKeys: true,
    logLevel: 'error',
    prettyErrors: false,
  });
  const position = (offset = 0): YamlPosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const problems: YamlProblem[] = [];
  const add = (offset: number | undefined, construct: string, message: string, tokens?: readonly string[]) => {
    problems.push({ ...position(offset), construct, message, ...(tokens && { pointer: formatPointer(tokens) }) });
  };
  for (const error of document.errors) add(error.pos[0], 'syntax', error.message);
  // An unknown tag is reported below, with the other tags.
  for (const { code, pos, message } of document.warnings) if (code !== 'TAG_RESOLVE_FAILED') add(pos[0], code, message);
  if (document.errors.length > 0) throw new YamlReadError(problems);
  const { version, explicit } = document.directives?.yaml ?? {};
  if (explicit && version !== '1.2') {
    const message = `the directive %YAML ${version} makes the loader read YAML ${version} (\`yes\` as true, \`0777\` as octal) where Redocly and Prism read 1.2: remove it`;
    add(0, `directive %YAML ${version}`, message);
  }
  const found = (node: unknown, construct: string, message: string, tokens: readonly string[]) =>
    add((node as Node | null)?.range?.[0], construct, message, tokens);
  const walk = (node: unknown, tokens: string[], ancestors: Node[]): void => {
    if (isAlias(node)) {
      const target = node.resolve(document);
      if (target && ancestors.includes(target)) {
        const message = `the alias *${node.source} sits inside its own anchor: a cycle, which JSON cannot hold`;
        found(node, `alias *${node.source}`, message, tokens);
      }
      return;
    }
    if (!isScalar(node) && !isMap(node) && !isSeq(node)) return;
    if (node.tag !== undefined) {
      const tag = node.tag.replace('tag:yaml.org,2002:', '!!');
      const message = `the tag ${tag} is read differently by YAML readers (a value JSON cannot hold, a string here and a number there, or an error): write the value without a tag`;
      found(node, `tag ${tag}`, message, tokens);
    }
    if (isScalar(node)) {
      if (typeof node.value === 'number' && !Number.isFinite(node.value)) {
        const message = `${node.source} is a number JSON cannot hold (JSON tools read it as null)`;
        found(node, `number ${node.source}`, message, tokens);
      }
      return;
    }
    const inner = [...ancestors, node];
    if (isSeq(node)) {
      for (const [i, item] of node.items.entries()) walk(item, [...tokens, String(i)], inner);
      return;
    }
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const name = isScalar(pair.key) ? String(pair.key.value) : '?';
      const key = keyProblem(pair.key);
      if (key) found(pair.key, key.construct, key.message, [...tokens, name]);
      else walk(pair.value, [...tokens, name], inner);
    }
  };
  walk(document.contents, [], []);
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  if (problems.length > 0) throw new YamlReadError(problems);
  // The guard against alias bombs, raised from yaml's 100: `YAML.stringify` of a document whose
  // equal objects are shared aliases a small schema (`{type: string}`) once per use. The JSON
  // round trip copies what aliases share, and writes -0 as 0, as JSON holds it.
  const data: unknown = JSON.parse(JSON.stringify(document.toJS({ maxAliasCount: 1000 })));
  return { data, locate: (pointer) => locate(document, position, parsePointer(pointer)) };
}

/** The problems of `readYaml`, one per line of its message. */
export class YamlReadError extends Error {
  constructor(readonly problems: readonly YamlProblem[]) {
    super(problems.map((p) => `line ${p.line}, column ${p.column}: ${p.message}`).join('\n'));
    this.name = 'YamlReadError';
  }
}

function keyProblem(key: unknown): { construct: string; message: string } | undefined {
  const problem = (construct: string, message: string) => ({ construct, message });
  if (isAlias(key))
    return problem(`alias key *${key.source}`, `an alias (*${key.source}) as a mapping key: write the key`);
  if (key !== null && key !== undefined && !isScalar(key)) {
    return problem('complex key', 'a collection as a mapping key: JSON keys are strings');
  }
  if (!isScalar(key) || key.value === null) {
    const text = isScalar(key) ? key.source : undefined;
    const message = `the key ${text ? `\`${text}\` ` : ''}is null, which YAML readers name "" or "null": quote it`;
    return problem(text ? `null key ${text}` : 'empty key', message);
  }
  if (key.type !== 'PLAIN') return undefined;
  if (key.source === '<<') {
    return problem(
      'merge key `<<`',
      'the merge key `<<` (YAML 1.1) is merged by Redocly and kept as a key named "<<" by the loader and Prism: write the keys out, or use a $ref',
    );
  }
  if (typeof key.value === 'string' || String(key.value) === key.source) return undefined;
  const value = String(key.value);
  return problem(
    `key ${key.source}`,
    `the key \`${key.source}\` is read as the ${typeof key.value} ${value}, so its name is "${value}": quote it`,
  );
}

function locate(document: Document, position: (offset?: number) => YamlPosition, tokens: readonly string[]) {
  let node: unknown = document.contents;
  let found = position((node as Node | null)?.range?.[0]);
  for (const token of tokens) {
    while (isAlias(node)) node = node.resolve(document);
    if (isSeq(node)) {
      const item = /^(0|[1-9]\d*)$/.test(token) ? node.items[Number(token)] : undefined;
      if (item === undefined) break;
      node = item;
      found = position((item as Node).range?.[0]);
    } else if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === token);
      if (!pair) break;
      node = pair.value;
      // Where the value starts, as Redocly places a location (an empty value: at its key).
      found = position(((pair.value as Node | null)?.range ?? (pair.key as Node).range)?.[0]);
    } else break;
  }
  return found;
}
