// The client's operations, generated from the OpenAPI document: for each operation a function of
// a connection named by its operationId (`renameProfile`: the document's checks, then one call of
// the request core), bound to the client as a resource method (`client.profiles.rename`), both with
// TSDoc from the operation and an example from its examples (see the README). `node
// ../../scripts/generate.mjs --artifacts <this file>` writes the result; `--check` is the drift check.
import { fileURLToPath } from 'node:url';
import { deref, loadOpenApiDocument, OPENAPI_PATH } from '@browser-cloud/openapi-document';
import { banner, operationSchemas, queryUnion } from '@browser-cloud/tooling/generate-artifacts';

const OUTPUT = new URL('../src/generated/', import.meta.url);

const pascal = (name) => name[0].toUpperCase() + name.slice(1);
const camel = (name) => name.replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_, c) => c.toUpperCase());

/** A value as a one-line JS literal, for examples: `{ name: "checkout-agent-eu" }`. */
const literal = (value) =>
  JSON.stringify(value, null, 1)
    .replace(/\n\s*/g, ' ')
    .replace(/"([A-Za-z_$][\w$]*)": /g, '$1: ');

/** A TSDoc comment of these paragraphs; the text cannot close it early. */
const doc = (...paragraphs) => {
  const text = paragraphs.filter(Boolean).join('\n\n').replaceAll('*/', '*\\/');
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
function describe(document, { operation, path, body, query, answer, event }) {
  const { operationId, method, sdk, repeatability, streaming } = operation;
  if (operation.success?.mediaType && !answer && !event) {
    throw new Error(`${operationId}: the client reads JSON answers and event streams only (client-operations.mjs).`);
  }
  const pathParameters = [...operation.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => {
    const parameter = operation.parameters.find((p) => p.in === 'path' && p.name === name);
    const resource = (parameter.collection ?? 'resource').replace(/ies$/, 'y').replace(/s$/, '').replace(/[-_]/g, ' ');
    const type =
      parameter.schema?.schema.type === 'string'
        ? 'string'
        : `operations['${operationId}']['parameters']['path']['${name}']`;
    const example = exampleOf(document, parameter.parameter, parameter.schema?.schema) ?? name;
    return { name, arg: camel(name), resource, type, example };
  });
  const union = query?.component && queryUnion(query.component, document.components.schemas[query.component]);
  const queryRequired = operation.query?.parameters.some((p) => p.required) ?? false;
  // A query of optional parameters only goes in the options: adding one changes no call's arguments.
  const queryType = query && (union?.name ?? query.component ?? query.type);
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
    ...(body ? [{ name: 'body', type: body.component ?? body.type, optional: !operation.body.required }] : []),
    ...(query && !inOptions ? [{ name: 'query', type: queryType, optional: false }] : []),
  ];
  const signature = args.map(({ name, type, optional }, i) =>
    optional && args.slice(i).every((a) => a.optional)
      ? `${name}?: ${type}`
      : `${name}: ${type}${optional ? ' | undefined' : ''}`,
  );
  const bodyMedia = operation.requestBody?.content[operation.body?.mediaType ?? '']?.media;
  const exampleArgs = [
    ...pathParameters.map((p) => literal(p.example)),
    ...(body ? [literal(exampleOf(document, bodyMedia, operation.body.schema?.schema) ?? {})] : []),
    ...(query && !inOptions ? [literal(queryExample)] : []),
  ];
  const result = answer ?? event;
  const deletes = method === 'delete' && !answer;
  // When this query parameter is true, the server keeps the stream going.
  const follow = operation.query?.parameters.find((p) => p.parameter['x-sse-follow'] === true);
  const { when } = repeatability;
  const whenText = Object.entries(when).map(([name, pattern]) => `\`${name}\` matches \`${pattern}\``);
  const retries = streaming
    ? `Returns an async iterable of ${event.component} that reconnects with \`Last-Event-ID\` (see the README's "Event streams").`
    : !repeatability.repeatable
      ? 'Not repeatable (the document says so): retried only when the connection certainly failed before sending.'
      : `Retried on connection errors, timeouts, 408, 429 and 5xx${whenText.length ? ` when ${whenText.join(' and ')}; otherwise only when the connection certainly failed before sending` : ''}.`;
  const gone = deletes
    ? ' A retry that meets 404 after an attempt that may have applied resolves: what it deletes is gone.'
    : '';
  return {
    operationId,
    method: method.toUpperCase(),
    path: operation.path,
    sdk,
    streaming,
    returns: streaming ? `EventStream<${event.component}>` : result ? `Promise<${result.component}>` : 'Promise<void>',
    signature: [
      ...signature,
      `options?: ${streaming ? 'StreamOptions' : 'RequestOptions'}${inOptions ? ` & { query?: ${queryType} }` : ''}`,
    ].join(', '),
    example: (target) => {
      const invocation = `${target}(${exampleArgs.join(', ')})`;
      const name = camel(result?.component.replace(/^./, (c) => c.toLowerCase()) ?? '');
      if (streaming) return `for await (const ${name} of ${invocation}) console.log(${name});`;
      return result ? `const ${name} = await ${invocation};` : `await ${invocation};`;
    },
    text: (target) =>
      doc(
        `${operation.operation.summary ?? operationId} (\`${method.toUpperCase()} ${operation.path}\`).`,
        operation.operation.description?.trim(),
        `${retries}${gone} The arguments are checked against the document before sending (ValidationError).`,
        `@example\n\`\`\`ts\n${target}\n\`\`\``,
      ),
    code: callOf(operation, { path, body, query, answer, event, pathParameters, inOptions, follow, deletes }),
    validators: [path, body, query, answer, event].filter(Boolean).map((part) => `validate${part.name}`),
    types: [body, query, answer, event].map((part) => part?.component).concat(union?.name ?? []),
    resources: Object.fromEntries(pathParameters.map((p) => [p.name, p.resource])),
  };
}

/**
 * The body of an operation's function: each part of the request read once as it is sent and
 * checked (`sendable`: the path values, the body, the query), then the request core, which sends
 * the checked text and a URL built from the checked values.
 */
function callOf(operation, { path, body, query, answer, event, pathParameters, inOptions, follow, deletes }) {
  const member = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`);
  const sentPath = (name) => `sentPath${member(name)}`;
  const url = operation.path
    .split(/\{([^}]+)\}/)
    .map((part, i) =>
      i % 2 === 1
        ? `pathSegment(${JSON.stringify(part)}, ${sentPath(part)}, ${JSON.stringify(pathParameters.find((p) => p.name === part).resource)})`
        : part && JSON.stringify(part),
    )
    .filter(Boolean)
    .join(' + ');
  const { repeatable, when } = operation.repeatability;
  const tests = Object.entries(when).map(
    ([name, pattern]) =>
      `/${new RegExp(pattern, 'u').source}/u.test(${pathParameters.some((p) => p.name === name) ? sentPath(name) : `String(sentQuery${member(name)})`})`,
  );
  const read = (part) => `{ validate: validate${part.name}, name: '${part.component}' }`;
  const pathValues = pathParameters.map((p) => `${JSON.stringify(p.name)}: ${p.arg}`).join(', ');
  const sendBody = body && `sendable(validate${body.name}, body, 'body')`;
  const checks = [
    pathParameters.length > 0 && `const sentPath = sendable(validate${path.name}, { ${pathValues} }, 'path').value;`,
    body && `const sentBody = ${operation.body.required ? sendBody : `body === undefined ? undefined : ${sendBody}`};`,
    query &&
      `const sentQuery = sendable(validate${query.name}, ${inOptions ? 'options?.query ?? {}' : 'query'}, 'query').value;`,
  ].filter(Boolean);
  const target = query ? `withQuery(${url}, sentQuery)` : url;
  const context = `contextOf(connection, '${operation.operationId}')`;
  // A stream checks its arguments at the call; the request core runs the checks in its promise.
  if (event) {
    const followed = follow ? `sentQuery${member(follow.name)} === true` : 'false';
    return [
      `const context = ${context};`,
      ...checks,
      `return openEventStream(context, ${target}, ${read(event)}, ${followed}, options);`,
    ];
  }
  const fields = [
    `method: '${operation.method.toUpperCase()}'`,
    `path: ${target}`,
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

const interfaceName = (node) =>
  node.path.length === 0 ? 'Resources' : node.path.map((s) => pascal(camel(s))).join('');

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

function factory(node, indent) {
  const entries = [
    ...node.methods.map((m) => `${m.sdk.verb}: ${m.operationId}.bind(undefined, client),`),
    ...[...node.children].map(([segment, child]) => `${segment}: ${factory(child, `${indent}  `)},`),
  ];
  return `{\n${entries.map((e) => `${indent}  ${e}`).join('\n')}\n${indent}}`;
}

/** The generated modules of `document`, by file name under `src/generated/`. */
export function generateClient(document) {
  const described = operationSchemas(document).map((parts) => describe(document, parts));
  const tree = treeOf(described);
  const validators = [...new Set(described.flatMap((d) => d.validators))];
  const types = [...new Set(described.flatMap((d) => d.types).filter(Boolean))];
  const byPath = Object.fromEntries(described.filter((d) => d.path.includes('{')).map((d) => [d.path, d.resources]));
  const client = [
    banner('packages/client/scripts/client-operations.mjs'),
    '// The operations of the document: a function of a connection per operation, named by its',
    '// operationId, which bundles only that operation, and the resource interfaces of `createClient`.',
    `import type { ${['operations', ...types].join(', ')} } from '@browser-cloud/api-types';`,
    `import { ${validators.join(', ')} } from '@browser-cloud/api-types/validators';`,
    "import { type Connection, contextOf } from '../connection.js';",
    "import { type EventStream, openEventStream, type StreamOptions } from '../event-stream.js';",
    "import { execute, goneOnceApplied, type RequestOptions, withQuery } from '../request.js';",
    "import { pathSegment, sendable } from '../validation.js';",
    '',
    ...interfaces(tree).flatMap((i) => [i, '']),
    ...described.flatMap((d) => [
      d.text(d.example(d.operationId).replace(`${d.operationId}(`, `${d.operationId}(connection, `)),
      `export function ${d.operationId}(connection: Connection, ${d.signature}): ${d.returns} {`,
      ...d.code.map((line) => `  ${line}`),
      '}',
      '',
    ]),
  ];
  const resources = [
    banner('packages/client/scripts/client-operations.mjs'),
    "import type { Connection } from '../connection.js';",
    `import { ${described.map((d) => d.operationId).join(', ')}, type Resources } from './client.js';`,
    '',
    '/** The operations of `createClient`, by resource: the functions of `./client.js`, bound to `client`. */',
    `export function resources(client: Connection): Resources {\n  return ${factory(tree, '  ')};\n}`,
    '',
    '/** What each path parameter addresses (`profile`), by path template, for `createRawClient`. */',
    `export const PATH_RESOURCES: Readonly<Record<string, Readonly<Record<string, string>>>> = ${JSON.stringify(byPath)};`,
    '',
  ];
  return { 'client.ts': client.join('\n'), 'resources.ts': resources.join('\n') };
}

/** @param documentPath the document to generate from; the repository's by default. */
export async function generateArtifacts(documentPath = OPENAPI_PATH) {
  const files = generateClient(loadOpenApiDocument(documentPath));
  return Object.entries(files).map(([file, contents]) => ({ path: fileURLToPath(new URL(file, OUTPUT)), contents }));
}
