// Redocly lint reads the YAML itself (so that its problems carry the lines a person edits):
// this rule checks that it reads what every other tool gets, the project's loader's reading.
import { jsonDifference, parsePointer, readYaml, YamlReadError } from '@browser-cloud/openapi-document';

/**
 * What keeps Redocly's reading of `text` (`root`) from being the loader's: the YAML constructs
 * the loader refuses (they read differently somewhere in the toolchain), each with its line, or
 * else the first place where the two readings differ.
 * @returns problems with the pointer Redocly should place them at.
 */
export function readingProblems(text, root) {
  let reading;
  try {
    reading = readYaml(text);
  } catch (error) {
    if (!(error instanceof YamlReadError)) throw error;
    return error.problems.map((p) => ({
      message: `${p.construct} at line ${p.line}: ${p.message}.`,
      pointer: p.pointer ?? '',
    }));
  }
  const difference = jsonDifference(reading.data, root);
  if (!difference) return [];
  const { line } = reading.locate(difference.pointer);
  return [
    {
      message:
        `Redocly reads ${difference.pointer || 'the document'} (line ${line}) as ${show(difference.actual)}, ` +
        `the project's loader (and every other tool) as ${show(difference.expected)}: write it so that both read the same.`,
      pointer: difference.pointer,
    },
  ];
}

function show(value) {
  if (value === undefined) return 'nothing';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  const text = JSON.stringify(value) ?? Object.prototype.toString.call(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** The deepest part of `tokens` that names a value in `root`: where Redocly can place a problem. */
export function existingPath(root, tokens) {
  const path = [];
  let node = root;
  for (const token of tokens) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) break;
    node = node[token];
    path.push(token);
  }
  return path;
}

export default function readAsLoader() {
  return {
    Root: {
      enter(root, ctx) {
        for (const { message, pointer } of readingProblems(ctx.location.source.body, root)) {
          ctx.report({ message, location: ctx.location.child(existingPath(root, parsePointer(pointer))) });
        }
      },
    },
  };
}
