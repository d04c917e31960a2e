import {
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseDocument,
  type Scalar,
} from 'yaml';
import { formatPointer, parsePointer } from './json-pointer.js';

/** A place in the YAML text, 1-based, as editors and Redocly count. */
export interface YamlPosition {
  readonly line: number;
  readonly column: number;
}

/**
 * Something in the YAML text that the project does not read: a syntax error, or a construct
 * that the YAML readers of the toolchain read differently (see `yamlProblems`).
 */
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
 * merge keys, unique keys; the result is JSON data. The readers the toolchain brings along
 * (js-yaml under Redocly, @stoplight/yaml under Prism) disagree with this one on a few
 * constructs, listed by `yamlProblems`; any of them makes this throw.
 * @throws YamlReadError naming every problem with its line.
 */
export function readYaml(text: string): YamlReading {
  const { document, lineCounter, problems } = inspect(text);
  if (problems.length > 0) throw new YamlReadError(problems);
  // The guard against alias bombs (an anchor may be used 999 times), raised from yaml's 100:
  // `YAML.stringify` of a document whose equal objects are shared aliases a small schema
  // (`{type: string}`) once per use.
  const data = toJsonData(document.toJS({ maxAliasCount: 1000 }));
  return { data, locate: (pointer) => locate(document, lineCounter, parsePointer(pointer)) };
}

/**
 * Every syntax error of `text`, and every construct that a YAML reader of the toolchain reads
 * otherwise than the project's loader (tried on `yaml` 2.9, Redocly CLI 2.77's js-yaml and Prism
 * 5.14's @stoplight/yaml):
 * - a `%YAML` directive other than 1.2: `yaml` then reads `yes` as true and `0777` as octal, the
 *   others do not;
 * - a merge key `<<`: js-yaml merges the aliased map in, `yaml` keeps a key named `<<`;
 * - a tag (`!!binary`, `!!set`, `!!timestamp`, `!local`, even `!!float`): values JSON cannot
 *   hold, an error in one reader and a string in another, or `!!float 1` the string "1" here and
 *   the number 1 in js-yaml;
 * - `.inf`, `.nan`: numbers JSON cannot hold;
 * - a mapping key that is not a string as written: a collection, an alias, a null (`~`, which
 *   one reader calls `""` and another `"null"`), or a plain scalar read as another number or
 *   boolean than its text (`0x10` is the key `"16"`, `1.0` the key `"1"`, `True` the key `"true"`);
 * - an alias inside its own anchor (a cycle, which JSON cannot hold).
 * Anchors and aliases, block scalars (any chomping), flow style and every quoting style are
 * read alike by all of them, or reach the tools that misread them (Prism) as JSON.
 */
export function yamlProblems(text: string): YamlProblem[] {
  return inspect(text).problems;
}

/** The problems of `readYaml`, one per line of its message. */
export class YamlReadError extends Error {
  constructor(readonly problems: readonly YamlProblem[]) {
    super(problems.map((p) => `line ${p.line}, column ${p.column}: ${p.message}`).join('\n'));
    this.name = 'YamlReadError';
  }
}

function inspect(text: string): { document: Document; lineCounter: LineCounter; problems: YamlProblem[] } {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, {
    lineCounter,
    version: '1.2',
    schema: 'core',
    merge: false,
    uniqueKeys: true,
    // 'silent' would also drop the error for a second document in the text.
    logLevel: 'error',
    prettyErrors: false,
  });
  const at = (offset: number): YamlPosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const problems: YamlProblem[] = [];
  for (const error of document.errors) {
    problems.push({ ...at(error.pos[0]), construct: 'syntax', message: error.message });
  }
  for (const warning of document.warnings) {
    // An unknown tag is reported below, with the other tags.
    if (warning.code === 'TAG_RESOLVE_FAILED') continue;
    problems.push({ ...at(warning.pos[0]), construct: warning.code, message: warning.message });
  }
  if (document.errors.length > 0) return { document, lineCounter, problems };
  const directive = document.directives?.yaml;
  if (directive?.explicit && directive.version !== '1.2') {
    problems.push({
      line: 1,
      column: 1,
      construct: `directive %YAML ${directive.version}`,
      message: `the directive %YAML ${directive.version} makes the loader read YAML ${directive.version} (\`yes\` as true, \`0777\` as octal) where Redocly and Prism read 1.2: remove it`,
    });
  }
  const found = (node: Node | null, construct: string, message: string, tokens: readonly string[]): void => {
    problems.push({ ...at(node?.range?.[0] ?? 0), construct, message, pointer: formatPointer(tokens) });
  };
  const walk = (node: unknown, tokens: string[], ancestors: Node[]): void => {
    if (isAlias(node)) {
      const target = node.resolve(document);
      if (target && ancestors.includes(target)) {
        found(
          node,
          `alias *${node.source}`,
          `the alias *${node.source} sits inside its own anchor: a cycle, which JSON cannot hold`,
          tokens,
        );
      }
      return;
    }
    if (!isScalar(node) && !isMap(node) && !isSeq(node)) return;
    if (node.tag !== undefined) {
      const tag = node.tag.replace('tag:yaml.org,2002:', '!!');
      found(
        node,
        `tag ${tag}`,
        `the tag ${tag} is read differently by YAML readers (a value JSON cannot hold, a string here and a number there, or an error): write the value without a tag`,
        tokens,
      );
    }
    if (isScalar(node)) {
      if (typeof node.value === 'number' && !Number.isFinite(node.value)) {
        found(
          node,
          `number ${node.source}`,
          `${node.source} is a number JSON cannot hold (JSON tools read it as null)`,
          tokens,
        );
      }
      return;
    }
    const inner = [...ancestors, node];
    if (isSeq(node)) {
      node.items.forEach((item, i) => {
        walk(item, [...tokens, String(i)], inner);
      });
      return;
    }
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const key = keyProblem(pair.key);
      const name = isScalar(pair.key) ? String(pair.key.value) : '?';
      if (key) found(pair.key as Node, key.construct, key.message, [...tokens, name]);
      else walk(pair.value, [...tokens, name], inner);
    }
  };
  walk(document.contents, [], []);
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return { document, lineCounter, problems };
}

function keyProblem(key: unknown): { construct: string; message: string } | undefined {
  if (key === null || key === undefined || (isScalar(key) && key.value === null)) {
    const text = isScalar(key) ? key.source : undefined;
    return {
      construct: text ? `null key ${text}` : 'empty key',
      message: `the key ${text ? `\`${text}\` ` : ''}is null, which YAML readers name "" or "null": quote it`,
    };
  }
  if (isAlias(key)) {
    return {
      construct: `alias key *${key.source}`,
      message: `an alias (*${key.source}) as a mapping key: write the key`,
    };
  }
  if (!isScalar(key)) {
    return { construct: 'complex key', message: 'a collection as a mapping key: JSON keys are strings' };
  }
  const scalar = key as Scalar;
  if (scalar.type !== 'PLAIN' || typeof scalar.value === 'string') {
    return scalar.source === '<<' && scalar.type === 'PLAIN' ? MERGE_KEY : undefined;
  }
  if (String(scalar.value) !== scalar.source) {
    return {
      construct: `key ${scalar.source}`,
      message: `the key \`${scalar.source}\` is read as the ${typeof scalar.value} ${String(scalar.value)}, so its name is "${String(scalar.value)}": quote it`,
    };
  }
  return undefined;
}

const MERGE_KEY = {
  construct: 'merge key `<<`',
  message:
    'the merge key `<<` (YAML 1.1) is merged by Redocly and kept as a key named "<<" by the loader and Prism: write the keys out, or use a $ref',
};

/** A copy of `value` that shares no object, refusing what JSON has no form for. */
function toJsonData(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    // `inspect` refused .inf and .nan; -0 is written 0 in JSON, and is 0 to every reader.
    return Object.is(value, -0) ? 0 : value;
  }
  if (Array.isArray(value)) return value.map(toJsonData);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = toJsonData(item);
    return copy;
  }
  // `inspect` refused the tags that make other values; reaching this is a bug here.
  throw new TypeError(`readYaml: a ${Object.prototype.toString.call(value)} reached the JSON copy`);
}

function locate(document: Document, lineCounter: LineCounter, tokens: readonly string[]): YamlPosition {
  const position = (offset: number | undefined): YamlPosition => {
    const { line, col } = lineCounter.linePos(offset ?? 0);
    return { line, column: col };
  };
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
