// The client's operations, generated from the OpenAPI document: for each operation a function of
// a connection named by its operationId (`renameProfile`: the document's checks, then one call of
// the request core), bound to the client as a resource method (`client.profiles.rename`), both with
// TSDoc from the operation and an example from its examples (see the README). A module per
// top-level resource (`resources/profiles.ts`: its functions, interfaces and `profilesResource`),
// so that an app bundles only the resource it imports; every name from the operations model.
// `node ../../scripts/generate.mjs --artifacts <this file>` writes the result, formatted by Biome;
// `--check` is the drift check.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  camelCase,
  deref,
  loadOpenApiDocument,
  OPENAPI_PATH,
  resourceFactoryName,
  resourceFileName,
  resourceInterfaceName,
  safeIdentifier,
} from '@browser-cloud/openapi-document';
import {
  banner,
  jsonLiteral,
  operationSchemas,
  propertyKey,
  queryUnion,
  quoted,
} from '@browser-cloud/tooling/generate-artifacts';

/** The schema types a path value of which is written as it is. */
const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean']);

/** The folder this generator owns (scripts/generate.mjs deletes what it no longer writes there). */
export const OUTPUT_DIR = fileURLToPath(new URL('../src/generated/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BANNER = banner('packages/client/scripts/client-operations.mjs');

/** Lines of a comment wrapped at `width` columns, a list item's lines indented under its text. */
function wrap(text, width = 100) {
  let code = false;
  return text.split('\n').flatMap((line) => {
    if (line.startsWith('```')) code = !code;
    if (code || line.length <= width || line.startsWith('```') || /^\s{4}/.test(line)) return [line];
    const indent = /^(\s*(?:[-*] |\d+\. )?)/.exec(line)[1];
    const lines = [];
    let current = '';
    for (const word of line.slice(indent.length).split(' ')) {
      const prefix = lines.length === 0 ? indent : ' '.repeat(indent.length);
      if (current && prefix.length + current.length + 1 + word.length > width) {
        lines.push(prefix + current);
        current = word;
      } else current = current ? `${current} ${word}` : word;
    }
    lines.push((lines.length === 0 ? indent : ' '.repeat(indent.length)) + current);
    return lines;
  });
}

/**
 * A value as a JS literal, as Biome writes one, for examples: `{ name: 'checkout-agent-eu' }` on
 * one line, or, where that line would pass 80 columns after `indent`, a member a line.
 */
function literal(value, indent = '') {
  if (typeof value === 'string') return quoted(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const array = Array.isArray(value);
  const members = (inner) =>
    array
      ? value.map((item) => literal(item, inner))
      : Object.entries(value).map(([key, item]) => `${propertyKey(key)}: ${literal(item, inner)}`);
  const flat = members('');
  if (flat.length === 0) return array ? '[]' : '{}';
  const oneLine = array ? `[${flat.join(', ')}]` : `{ ${flat.join(', ')} }`;
  if (indent.length + oneLine.length <= 80) return oneLine;
  const inner = `${indent}  `;
  const lines = members(inner)
    .map((member) => `${inner}${member},\n`)
    .join('');
  return array ? `[\n${lines}${indent}]` : `{\n${lines}${indent}}`;
}

/** A TSDoc comment of these paragraphs, wrapped; the text cannot close it early. */
const doc = (...paragraphs) => {
  const text = wrap(paragraphs.filter(Boolean).join('\n\n').replaceAll('*/', '*\\/')).join('\n');
  return `/**\n${text.replace(/^(?=.)/gm, ' * ').replace(/^$/gm, ' *')}\n */`;
};

/** The first example the document gives for a parameter or a media type, else undefined. */
function exampleOf(document, node, schema) {
  if (node?.example !== undefined) return node.example;
  const [first] = Object.values(node?.examples ?? {});
  if (first !== undefined) return deref(document, first).value;
  return schema?.examples?.[0] ?? schema?.example;
}

/** Everything the generated code says about one operation. */
function describe(document, { operation, path, header, body, query, answer, event }) {
  const { operationId, method, sdk, repeatability, streaming, names } = operation;
  if (operation.success?.mediaType && !answer && !event) {
    throw new Error(`${operationId}: the client reads JSON answers and event streams only (client-operations.mjs).`);
  }
  const pathParameters = [...operation.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => {
    const parameter = operation.parameters.find((p) => p.in === 'path' && p.name === name);
    const type =
      parameter.schema?.schema.type === 'string'
        ? 'string'
        : `operations[${quoted(operationId)}]['parameters']['path'][${quoted(name)}]`;
    const example = exampleOf(document, parameter.parameter, parameter.schema?.schema) ?? name;
    return {
      name,
      arg: names.pathArguments[name],
      resource: parameter.addresses,
      type,
      example,
      explode: parameter.serialization.explode,
      // A scalar schema is written as it is; anything else (an array, an object, a schema of no
      // single type) in the `simple` style.
      styled: !SCALAR_TYPES.has(parameter.schema?.schema.type),
    };
  });
  const union = query?.component && queryUnion(query.typeName, document.components.schemas[query.component]);
  const queryRequired = operation.query?.parameters.some((p) => p.required) ?? false;
  // A query of optional parameters only goes in the options: adding one changes no call's arguments.
  const queryType = query && (union?.name ?? query.typeName);
  const inOptions = query && !queryRequired;
  const queryExample = {};
  for (const p of operation.query?.parameters ?? []) {
    const needed =
      p.required || union?.facts.some((f) => queryExample[f.key] === f.value && f.required.includes(p.name));
    const value = exampleOf(document, p.parameter, p.schema?.schema);
    if (needed && value !== undefined) queryExample[p.name] = value;
  }
  // The arguments in the calling convention: path values, body, query; one is optional (`?`)
  // only when every argument after it is too.
  const args = [
    ...pathParameters.map((p) => ({ name: p.arg, type: p.type, optional: false })),
    ...(body ? [{ name: 'body', type: body.typeName, optional: !operation.body.required }] : []),
    ...(query && !inOptions ? [{ name: 'query', type: queryType, optional: false }] : []),
  ];
  const signature = args.map(({ name, type, optional }, i) =>
    optional && args.slice(i).every((a) => a.optional)
      ? `${name}?: ${type}`
      : `${name}: ${type}${optional ? ' | undefined' : ''}`,
  );
  const bodyMedia = operation.requestBody?.content[operation.body?.mediaType ?? '']?.media;
  // The values of the example's arguments, written as literals where the call is laid out.
  const exampleValues = [
    ...pathParameters.map((p) => p.example),
    ...(body ? [exampleOf(document, bodyMedia, operation.body.schema?.schema) ?? {}] : []),
    ...(query && !inOptions ? [queryExample] : []),
  ];
  const result = answer ?? event;
  const deletes = method === 'delete' && !answer;
  // When this query parameter is true, the server keeps the stream going.
  const follow = operation.query?.parameters.find((p) => p.parameter['x-sse-follow'] === true);
  const { when } = repeatability;
  const whenText = Object.entries(when).map(([name, pattern]) => `\`${name}\` matches \`${pattern}\``);
  const retries = streaming
    ? `Returns an async iterable of ${event.component ?? 'events'} that reconnects with \`Last-Event-ID\` (see the README's "Event streams").`
    : !repeatability.repeatable
      ? 'Not repeatable (the document says so): retried only when the connection certainly failed before sending.'
      : `Retried on connection errors, timeouts, 408, 429 and 5xx${whenText.length ? ` when ${whenText.join(' and ')}; otherwise only when the connection certainly failed before sending` : ''}.`;
  const gone = deletes
    ? ' A retry that meets 404 after an attempt that may have applied resolves: what it deletes is gone.'
    : '';
  return {
    operationId,
    function: names.function,
    method: method.toUpperCase(),
    path: operation.path,
    sdk,
    streaming,
    returns: streaming ? `EventStream<${event.typeName}>` : result ? `Promise<${result.typeName}>` : 'Promise<void>',
    signature: [
      ...signature,
      `options?: ${streaming ? 'StreamOptions' : 'RequestOptions'}${inOptions ? ` & { query?: ${queryType} }` : ''}${header ? ` & { header?: ${header.typeName} }` : ''}`,
    ].join(', '),
    example: (target, leading = []) => {
      const name = safeIdentifier(camelCase(result?.component ?? '')) || 'result';
      const line = (args) => {
        const invocation = `${target}(${args})`;
        if (streaming) return `for await (const ${name} of ${invocation}) console.log(${name});`;
        return result ? `const ${name} = await ${invocation};` : `await ${invocation};`;
      };
      const short = line([...leading, ...exampleValues.map((v) => literal(v))].join(', '));
      // As Biome would write it: a call too long for a line gets an argument a line.
      if (short.length <= 96) return short;
      const args = [...leading, ...exampleValues.map((v) => literal(v, '  '))];
      return line(`\n${args.map((a) => `  ${a},\n`).join('')}`);
    },
    text: (target) =>
      doc(
        `${operation.operation.summary ?? operationId} (\`${method.toUpperCase()} ${operation.path}\`).`,
        operation.operation.description?.trim(),
        `${retries}${gone} The arguments are checked against the document before sending (ValidationError).`,
        `@example\n\`\`\`ts\n${target}\n\`\`\``,
      ),
    code: callOf(operation, { path, header, body, query, answer, event, pathParameters, inOptions, follow, deletes }),
    validators: [path, header, body, query, answer, event].filter(Boolean).map((part) => `validate${part.name}`),
    types: [body, query, answer, event]
      .filter((part) => part?.component)
      .map((part) => part.typeName)
      .concat(union?.name ?? []),
    resources: Object.fromEntries(pathParameters.map((p) => [p.name, p.resource])),
  };
}

/**
 * The body of an operation's function: each part of the request read once as it is sent and
 * checked (`sendable`: the path values, the body, the query, the headers), then the request core,
 * which sends the checked text and a URL and headers built from the checked values.
 */
function callOf(operation, { path, header, body, query, answer, event, pathParameters, inOptions, follow, deletes }) {
  const sent = (part, name) => `${part}[${quoted(name)}]`;
  // A path value as text, for a pattern to test: a number is written as its digits.
  const pathText = (name) => {
    const parameter = pathParameters.find((p) => p.name === name);
    if (!parameter) return undefined;
    return parameter.type === 'string' ? sent('sentPath', name) : `String(${sent('sentPath', name)})`;
  };
  const segment = (name) => {
    const { resource, explode, styled } = pathParameters.find((p) => p.name === name);
    const args = [quoted(name), sent('sentPath', name), quoted(resource)];
    return styled ? `styledPathSegment(${[...args, explode].join(', ')})` : `pathSegment(${args.join(', ')})`;
  };
  const url = operation.path
    .split(/\{([^}]+)\}/)
    .map((part, i) => (i % 2 === 1 ? segment(part) : part && quoted(part)))
    .filter(Boolean)
    .join(' + ');
  const { repeatable, when } = operation.repeatability;
  // A query value that is not given does not match: only the values the pattern accepts make a request repeatable.
  const tests = Object.entries(when).map(([name, pattern]) => {
    const test = `/${new RegExp(pattern, 'u').source}/u.test`;
    if (pathText(name)) return `${test}(${pathText(name)})`;
    const value = sent('sentQuery', name);
    return `(${value} !== undefined && ${test}(String(${value})))`;
  });
  const read = (part) => `{ validate: validate${part.name}, name: ${quoted(part.component ?? 'the answer')} }`;
  const pathValues = pathParameters.map((p) => `${propertyKey(p.name)}: ${p.arg}`).join(', ');
  const sendBody = body && `sendable(validate${body.name}, body, 'body')`;
  const checks = [
    pathParameters.length > 0 && `const sentPath = sendable(validate${path.name}, { ${pathValues} }, 'path').value;`,
    body && `const sentBody = ${operation.body.required ? sendBody : `body === undefined ? undefined : ${sendBody}`};`,
    query &&
      `const sentQuery = sendable(validate${query.name}, ${inOptions ? 'options?.query ?? {}' : 'query'}, 'query').value;`,
    header && `const sentHeader = sendable(validate${header.name}, options?.header ?? {}, 'header').value;`,
  ].filter(Boolean);
  // The styles of the query parameters that are not form and exploded, OpenAPI's default.
  const styles = Object.fromEntries(
    (operation.query?.parameters ?? [])
      .filter(({ serialization: { style, explode } }) => style !== 'form' || !explode)
      .map((p) => [p.name, p.serialization]),
  );
  const styleArgument = Object.keys(styles).length > 0 ? `, ${jsonLiteral(styles)}` : '';
  const target = query ? `withQuery(${url}, sentQuery${styleArgument})` : url;
  // The header parameters in the `simple` style; exploded ones named.
  const exploded = operation.parameters.filter((p) => p.in === 'header' && p.serialization.explode);
  const headerArgument =
    exploded.length > 0 ? `, ${jsonLiteral(Object.fromEntries(exploded.map((p) => [p.name, true])))}` : '';
  const context = `contextOf(connection, ${quoted(operation.operationId)})`;
  // A stream checks its arguments at the call; the request core runs the checks in its promise.
  if (event) {
    const followed = follow ? `${sent('sentQuery', follow.name)} === true` : 'false';
    // The stream's header parameters go with the caller's own extra headers, on every (re)connection.
    const streamOptions = header
      ? `{ ...options, headers: { ...options?.headers, ...headerValues(sentHeader${headerArgument}) } }`
      : 'options';
    return [
      `const context = ${context};`,
      ...checks,
      `return openEventStream(context, ${target}, ${read(event)}, ${followed}, ${streamOptions});`,
    ];
  }
  const fields = [
    `method: '${operation.method.toUpperCase()}'`,
    `path: ${target}`,
    ...(header ? [`headers: headerValues(sentHeader${headerArgument})`] : []),
    ...(body ? [`body: sentBody${operation.body.required ? '' : '?'}.text`] : []),
    `repeatable: ${repeatable && tests.length > 0 ? tests.join(' && ') : repeatable}`,
    ...(answer ? [`answer: ${read(answer)}`] : []),
    ...(deletes ? ['done: goneOnceApplied()'] : []),
  ];
  return [
    `return execute(${context}, () => {`,
    ...checks.map((line) => `  ${line}`),
    `  return { ${fields.join(', ')} };`,
    '}, options);',
  ];
}

/** The resource tree: `{ auth: { connections: { login } } }`, each node with its methods and children, in document order. */
function treeOf(operations) {
  const root = { path: [], methods: [], children: new Map() };
  for (const operation of operations) {
    let node = root;
    for (const segment of operation.sdk.resource) {
      if (!node.children.has(segment)) {
        node.children.set(segment, { path: [...node.path, segment], methods: [], children: new Map() });
      }
      node = node.children.get(segment);
    }
    const { verb } = operation.sdk;
    if (node.methods.some((m) => m.sdk.verb === verb) || node.children.has(verb)) {
      throw new Error(`client.${[...node.path, verb].join('.')} names two things; set x-sdk-verb.`);
    }
    node.methods.push(operation);
  }
  return root;
}

const interfaceName = (node) => resourceInterfaceName(node.path);

function interfaces(node) {
  const own = [
    doc(node.path.length === 0 ? 'The operations of the document, by resource.' : `\`client.${node.path.join('.')}\`.`),
    `export interface ${interfaceName(node)} {`,
    ...node.methods.flatMap((m) => [
      m.text(m.example(`client.${[...node.path, m.sdk.verb].join('.')}`)).replace(/^/gm, '  '),
      `  ${m.sdk.verb}(${m.signature}): ${m.returns};`,
    ]),
    ...[...node.children].map(([segment, child]) => `  readonly ${segment}: ${interfaceName(child)};`),
    '}',
  ].join('\n');
  return [own, ...[...node.children.values()].flatMap(interfaces)];
}

/** The object of a resource node: its methods bound to `client`, its children's objects. */
function factory(node, indent, child = (_segment, node) => factory(node, `${indent}  `)) {
  const entries = [
    ...node.methods.map((m) => `${m.sdk.verb}: ${m.function}.bind(undefined, client),`),
    ...[...node.children].map(([segment, node]) => `${segment}: ${child(segment, node)},`),
  ];
  return `{\n${entries.map((e) => `${indent}  ${e}`).join('\n')}\n${indent}}`;
}

/** Every operation under `node`, in document order. */
const operationsUnder = (node) => [...node.methods, ...[...node.children.values()].flatMap(operationsUnder)];

/**
 * The imports of a module whose body is `body`: only what it uses. The names the model reserves
 * for them (HAND_WRITTEN_NAMES.clientModule) no generated name takes.
 */
function importsOf(source, described, own = []) {
  // What the code uses, not its comments.
  const body = source.replace(/\/\*\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  // A member access (`a.name`) is not a use; a spread (`...name`) is.
  const uses = (name) =>
    new RegExp(`(?<![\\w$'])(?<!(?:^|[^.])\\.)${name.replace(/\$/g, '\\$')}(?![\\w$'])`).test(body);
  const used = (names) => [...new Set(names)].filter((name) => !own.includes(name) && uses(name));
  const line = (names, from, typeOnly = []) => {
    const picked = used([...names, ...typeOnly]);
    if (picked.length === 0) return [];
    const all = picked.every((name) => typeOnly.includes(name));
    const list = picked.map((name) => (!all && typeOnly.includes(name) ? `type ${name}` : name));
    return [`import ${all ? 'type ' : ''}{ ${list.join(', ')} } from '${from}';`];
  };
  return [
    ...line([], '@browser-cloud/api-types', ['operations', ...described.flatMap((d) => d.types)]),
    ...line(
      described.flatMap((d) => d.validators),
      '@browser-cloud/api-types/validators',
    ),
    ...line(['contextOf'], '../connection.js', ['Connection']),
    ...line(['openEventStream'], '../event-stream.js', ['EventStream', 'StreamOptions']),
    ...line(['headerValues', 'pathSegment', 'styledPathSegment', 'withQuery'], '../parameters.js'),
    ...line(['execute', 'goneOnceApplied'], '../request.js', ['RequestOptions']),
    ...line(['sendable'], '../validation.js'),
  ];
}

/** The function of each operation, with its TSDoc. */
const functionsOf = (described) =>
  described.flatMap((d) => [
    d.text(d.example(d.function, ['connection'])),
    `export function ${d.function}(connection: Connection, ${d.signature}): ${d.returns} {`,
    ...d.code.map((line) => `  ${line}`),
    '}',
    '',
  ]);

/** A module's source: the banner, a comment, its imports, then its body. */
function moduleSource(comment, body, described, own) {
  const imports = importsOf(body.join('\n'), described, own).map((line) =>
    line.replace("'../", described.nested ? "'../../" : "'../"),
  );
  return [BANNER, comment, ...imports, '', ...body].join('\n');
}

/** The generated modules of `document`, by file name under `src/generated/`. */
export function generateClient(document) {
  const described = operationSchemas(document).map((parts) => describe(document, parts));
  const tree = treeOf(described);
  const files = {};
  const top = [...tree.children];
  for (const [segment, node] of top) {
    const own = operationsUnder(node);
    const name = resourceFactoryName(segment);
    const body = [
      ...interfaces(node).flatMap((i) => [i, '']),
      `/** \`client.${segment}\` of a connection: import this module alone to bundle only this resource. */`,
      `export function ${name}(client: Connection): ${interfaceName(node)} {`,
      `  return ${factory(node, '  ')};`,
      '}',
      '',
      ...functionsOf(own),
    ];
    files[`resources/${resourceFileName(segment)}.ts`] = moduleSource(
      `// \`client.${segment}\`: a function of a connection per operation, named by its operationId, and the resource.`,
      body,
      Object.assign([...own], { nested: true }),
    );
  }
  // The operations on the client itself (a path of parameters only), then the root interface.
  const client = [
    ...top.map(([segment]) => `export * from './resources/${resourceFileName(segment)}.js';`),
    '',
    ...interfaces({ ...tree, children: new Map() }).map((i) =>
      i.replace(
        /\n\}$/,
        `${top.map(([segment, node]) => `\n  readonly ${segment}: ${interfaceName(node)};`).join('')}\n}`,
      ),
    ),
    '',
    ...functionsOf(tree.methods),
  ];
  files['client.ts'] = moduleSource(
    '// The operations of the document: a module per resource, and the root interface of `createClient`.',
    client,
    tree.methods,
    top.map(([, node]) => interfaceName(node)),
  ).replace(
    /\n+(export \* from)/,
    `\n${top.map(([segment, node]) => `import type { ${interfaceName(node)} } from './resources/${resourceFileName(segment)}.js';\n`).join('')}\n$1`,
  );
  const byPath = Object.fromEntries(described.filter((d) => d.path.includes('{')).map((d) => [d.path, d.resources]));
  const factories = top.map(([segment]) => resourceFactoryName(segment));
  const resources = [
    BANNER,
    "import type { Connection } from '../connection.js';",
    `import type { Resources } from './client.js';`,
    ...top.map(
      ([segment, node]) =>
        `import { type ${interfaceName(node)}, ${resourceFactoryName(segment)} } from './resources/${resourceFileName(segment)}.js';`,
    ),
    ...(tree.methods.length > 0
      ? [`import { ${tree.methods.map((m) => m.function).join(', ')} } from './client.js';`]
      : []),
    '',
    `export type { ${top.map(([, node]) => interfaceName(node)).join(', ')} };`,
    '',
    '/** The operations of `createClient`, by resource: the functions of `./resources/`, bound to `client`. */',
    `export function resources(client: Connection): Resources {`,
    `  return ${factory(tree, '  ', (segment) => `${factories[top.findIndex(([s]) => s === segment)]}(client)`)};`,
    '}',
    '',
    '/** What each path parameter addresses (`profile`), by path template, for `createRawClient`. */',
    `export const PATH_RESOURCES: Readonly<Record<string, Readonly<Record<string, string>>>> = ${JSON.stringify(byPath)};`,
    '',
  ];
  files['resources.ts'] = resources.join('\n');
  return files;
}

/** `contents` formatted by the repo's Biome configuration, as a TypeScript file. */
async function format(contents) {
  const biome = fileURLToPath(new URL('../../../node_modules/.bin/biome', import.meta.url));
  const run = promisify(execFile);
  const child = run(biome, ['format', '--stdin-file-path=generated.ts'], { cwd: ROOT, maxBuffer: 64 << 20 });
  child.child.stdin.end(contents);
  return (await child).stdout;
}

/** @param documentPath the document to generate from; the repository's by default. */
export async function generateArtifacts(documentPath = OPENAPI_PATH) {
  const files = generateClient(loadOpenApiDocument(documentPath));
  return Promise.all(
    Object.entries(files).map(async ([file, contents]) => ({
      path: `${OUTPUT_DIR}${file}`,
      contents: await format(contents),
    })),
  );
}
