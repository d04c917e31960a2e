// Realistic edits of openapi/openapi.yaml, the kinds the API team makes, drawn at random from a
// seed by scripts/check-api-workflow.mjs. Each edit goes through the YAML document (comments and
// layout kept) and finds its place through the operations model, so that it applies to whatever
// the document holds by then.
import { operations, parseOpenApiDocument } from '@browser-cloud/openapi-document';
import { isScalar, parseDocument, visit } from 'yaml';

/** How the document is written: `yaml` writes it back byte for byte with these options. */
const WRITE_OPTIONS = { lineWidth: 0, flowCollectionPadding: false, doubleQuotedAsJSON: true };

/** mulberry32: a small seeded generator, so that a run is replayed from its seed. */
export function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const pick = (random, list) => list[Math.floor(random() * list.length)];
const componentOf = (schema) => /^#\/components\/schemas\/([^/]+)$/.exec(schema?.$ref ?? '')?.[1];
const fresh = (names, taken) => names.filter((name) => !taken.includes(name));

/** The component schemas the service answers with: 2xx JSON bodies and event data. */
function answerComponents(model) {
  const names = new Set();
  for (const { success, responses } of model) {
    if (!success) continue;
    const media = responses[success.status]?.content[success.mediaType]?.media;
    for (const schema of [media?.schema, success.eventData?.schema])
      if (componentOf(schema)) names.add(componentOf(schema));
  }
  return [...names];
}

/** Names that are a property of some schema of the document, with how many schemas have them. */
function propertyNames(json) {
  const counts = new Map();
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    if (isObject(node.properties))
      for (const name of Object.keys(node.properties)) counts.set(name, (counts.get(name) ?? 0) + 1);
    Object.values(node).forEach(walk);
  };
  walk(json.components?.schemas);
  return counts;
}

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Each edit: `apply(doc, context)` changes the YAML document and returns what it did in a few
 * words, or undefined when the document offers it no place.
 */
const EDITS = {
  reword(doc, { model, random }) {
    const operation = pick(random, model);
    doc.setIn(['paths', operation.path, operation.method, 'summary'], `${operation.operation.summary} (reworded)`);
    return `${operation.operationId}'s summary reworded`;
  },
  'add response property'(doc, { model, json, random }) {
    const component = pick(random, answerComponents(model));
    const taken = Object.keys(json.components.schemas[component]?.properties ?? {});
    const name = pick(random, fresh(['region', 'labels', 'note', 'origin', 'owner', 'retention_days'], taken));
    if (!component || !name) return undefined;
    const schema = name === 'labels' ? { type: 'array', items: { type: 'string' } } : { type: 'string' };
    doc.setIn(
      ['components', 'schemas', component, 'properties', name],
      doc.createNode({ ...schema, description: `The ${name.replace('_', ' ')}.` }),
    );
    return `optional ${component}.${name} added to an answer`;
  },
  'remove response property'(doc, { model, json, random }) {
    const counts = propertyNames(json);
    const candidates = answerComponents(model).flatMap((component) => {
      const schema = json.components.schemas[component];
      return Object.keys(schema?.properties ?? {})
        .filter((name) => !(schema.required ?? []).includes(name) && counts.get(name) === 1)
        .map((name) => [component, name]);
    });
    if (candidates.length === 0) return undefined;
    const [component, name] = pick(random, candidates);
    // The name is a property of this schema only: every other pair with it is one of its examples.
    visit(doc, { Pair: (_, pair) => (isScalar(pair.key) && pair.key.value === name ? visit.REMOVE : undefined) });
    return `optional ${component}.${name} removed from an answer, with its examples`;
  },
  'add query parameter'(doc, { model, random }) {
    const operation = pick(random, model);
    const taken = operation.parameters.map((p) => p.name);
    const get = operation.method === 'get';
    const name = pick(random, fresh(get ? ['tail', 'limit', 'max_lines'] : ['dry_run', 'notify'], taken));
    if (!name) return undefined;
    const schema = get
      ? { type: 'integer', minimum: 1, description: `At most this many (${name}).` }
      : { type: 'boolean', description: `Whether to ${name.replace('_', ' ')}.` };
    const parameter = { name, in: 'query', required: false, description: schema.description, example: get ? 10 : true };
    const object = operation.query?.pointer;
    if (object) {
      doc.setIn([...object.split('/').slice(1), 'properties', name], doc.createNode(schema));
      parameter.schema = { $ref: `#${object}/properties/${name}` };
    } else parameter.schema = schema;
    const at = ['paths', operation.path, operation.method, 'parameters'];
    if (!doc.hasIn(at)) doc.setIn(at, doc.createNode([]));
    doc.getIn(at).add(doc.createNode(parameter));
    return `optional query parameter ${name} added to ${operation.operationId}`;
  },
  'add body property'(doc, { model, json, random }) {
    const components = model
      .map((o) => componentOf(o.requestBody && Object.values(o.requestBody.content)[0]?.media.schema))
      .filter(Boolean);
    const component = pick(random, [...new Set(components)]);
    const name =
      component &&
      pick(
        random,
        // Names no query parameter takes here: an argument of a tool or a command is one or the other.
        fresh(['note', 'priority', 'reason'], Object.keys(json.components.schemas[component]?.properties ?? {})),
      );
    if (!name) return undefined;
    const schema = { type: 'string', maxLength: 255, description: `A ${name} for this request.` };
    doc.setIn(['components', 'schemas', component, 'properties', name], doc.createNode(schema));
    return `optional ${component}.${name} added to a request body`;
  },
  'add enum value'(doc, { model, json, random }) {
    const answers = answerComponents(model);
    const enums = [];
    const walk = (node, path) => {
      if (!isObject(node)) return;
      if (Array.isArray(node.enum) && node.enum.every((v) => typeof v === 'string')) enums.push([path, node.enum]);
      for (const [key, value] of Object.entries(node)) if (isObject(value)) walk(value, [...path, key]);
    };
    walk(json.components.schemas, ['components', 'schemas']);
    // In an answer, only a property's own enum: its new value gets an example of its own, as
    // the document's convention asks (every value of an answer's enum has an example).
    const placed = enums.filter(
      ([path]) => !answers.includes(path[2]) || (path.length === 5 && path[3] === 'properties'),
    );
    if (placed.length === 0) return undefined;
    const [path, values] = pick(random, placed);
    const upper = values.every((v) => v === v.toUpperCase());
    const value = pick(random, fresh(upper ? ['SSO', 'MANUAL'] : ['journal', 'stdout'], values));
    if (!value) return undefined;
    doc.getIn([...path, 'enum']).add(doc.createNode(value));
    const [, , component, , property] = path;
    for (const operation of answers.includes(component) ? model : []) {
      const { success } = operation;
      const media = success && operation.responses[success.status]?.content[success.mediaType];
      if (componentOf(media?.media.schema) !== component) continue;
      const at = [
        'paths',
        operation.path,
        operation.method,
        'responses',
        success.status,
        'content',
        success.mediaType,
        'examples',
      ];
      const [first] = Object.values(media.media.examples ?? {});
      if (first?.value === undefined) continue;
      doc.setIn(
        [...at, value.toLowerCase()],
        doc.createNode({ summary: `${property} ${value}`, value: { ...first.value, [property]: value } }),
      );
    }
    return `enum value ${value} added at ${path.slice(2).join('.')}`;
  },
  'add operation'(doc, { model, json, random }) {
    const templates = OPERATION_TEMPLATES.filter(
      ({ method, path, operation }) =>
        !json.paths[path]?.[method] && !model.some((o) => o.operationId === operation.operationId),
    );
    const template = pick(random, templates);
    if (!template) return undefined;
    const { method, path, operation, component, tag } = template;
    if (tag && !json.tags?.some((t) => t.name === tag.name)) doc.get('tags').add(doc.createNode(tag));
    if (component) doc.setIn(['components', 'schemas', component.name], doc.createNode(component.schema));
    if (!doc.hasIn(['paths', path])) doc.setIn(['paths', path], doc.createNode({}));
    doc.setIn(['paths', path, method], doc.createNode(operation));
    return `operation ${method.toUpperCase()} ${path} (${operation.operationId}) added`;
  },
};

export const EDIT_KINDS = Object.keys(EDITS);

const errors = (...statuses) =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        $ref: `#/components/responses/${{ 400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 500: 'InternalError' }[status]}`,
      },
    ]),
  );
const requestId = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };
const profileParameter = {
  name: 'id_or_name',
  in: 'path',
  required: true,
  description: 'The profile ID or the profile name.',
  schema: { type: 'string', minLength: 1 },
  example: 'prof_01HZY5C7D9E1F3G5H7J9K1M3NA',
};

/**
 * Operations an API team adds: two on a resource the service stores (as the official SDK has
 * them: `profiles.retrieve` answers a Profile, `profiles.delete` answers no body) and one on a
 * resource area this document does not cover yet, with a schema of its own.
 */
const OPERATION_TEMPLATES = [
  {
    method: 'get',
    path: '/profiles/{id_or_name}',
    operation: {
      operationId: 'getProfile',
      summary: 'Get a profile',
      description: 'Reads a profile by its ID or its name.',
      tags: ['Profiles'],
      security: [{ bearerAuth: [] }],
      parameters: [profileParameter],
      responses: {
        200: {
          description: 'The profile.',
          headers: requestId,
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/Profile' },
              examples: {
                profile: {
                  summary: 'A profile',
                  value: {
                    id: 'prof_01HZY5C7D9E1F3G5H7J9K1M3NA',
                    name: 'checkout-agent-eu',
                    created_at: '2026-10-02T09:12:44Z',
                  },
                },
              },
            },
          },
        },
        ...errors(400, 401, 403, 404, 500),
      },
    },
  },
  {
    method: 'delete',
    path: '/profiles/{id_or_name}',
    operation: {
      operationId: 'deleteProfile',
      summary: 'Delete a profile',
      description: 'Deletes a profile by its ID or its name.',
      tags: ['Profiles'],
      security: [{ bearerAuth: [] }],
      parameters: [profileParameter],
      responses: {
        204: { description: 'The profile was deleted.', headers: requestId },
        ...errors(400, 401, 403, 404, 500),
      },
    },
  },
  {
    method: 'get',
    path: '/extensions/{id}',
    tag: { name: 'Extensions', description: 'Browser extensions uploaded to the project.' },
    component: {
      name: 'Extension',
      schema: {
        type: 'object',
        title: 'Extension',
        description: 'A browser extension uploaded to the project.',
        properties: {
          id: { type: 'string', description: 'Extension ID' },
          name: { type: 'string', description: 'Extension name' },
          created_at: { type: 'string', format: 'date-time', description: 'Upload time' },
        },
        required: ['id', 'name'],
        additionalProperties: false,
      },
    },
    operation: {
      operationId: 'getExtension',
      summary: 'Get an extension',
      description: 'Reads an uploaded browser extension.',
      tags: ['Extensions'],
      security: [{ bearerAuth: [] }],
      parameters: [
        {
          name: 'id',
          in: 'path',
          required: true,
          description: 'The extension ID.',
          schema: { type: 'string', minLength: 1 },
          example: 'ext_01HZY6D8E0F2G4H6J8K0M2N4PA',
        },
      ],
      responses: {
        200: {
          description: 'The extension.',
          headers: requestId,
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/Extension' },
              examples: {
                extension: {
                  summary: 'An extension',
                  value: {
                    id: 'ext_01HZY6D8E0F2G4H6J8K0M2N4PA',
                    name: 'ad-blocker',
                    created_at: '2026-11-01T08:00:00Z',
                  },
                },
              },
            },
          },
        },
        ...errors(400, 401, 403, 404, 500),
      },
    },
  },
];

/** The document after one edit of `kind`, or undefined when it offers that edit no place. */
export function applyEdit(text, kind, random) {
  const doc = parseDocument(text);
  const json = doc.toJS();
  const done = EDITS[kind](doc, { model: [...operations(parseOpenApiDocument(text))], json, random });
  return done === undefined ? undefined : { text: doc.toString(WRITE_OPTIONS), done };
}

/**
 * `count` edits drawn from `seed`: always one added operation (the proof that a new operation
 * needs no code), and `count - 1` others of distinct kinds, each applied to the document the
 * ones before it left.
 */
export function drawChanges(text, seed, count) {
  const random = seeded(seed);
  const kinds = EDIT_KINDS.filter((kind) => kind !== 'add operation');
  // Fisher–Yates, from the seed.
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
  }
  const changes = [];
  for (const kind of ['add operation', ...kinds]) {
    if (changes.length >= count) break;
    const edited = applyEdit(text, kind, random);
    if (edited === undefined) continue;
    text = edited.text;
    changes.push({ kind, done: edited.done });
  }
  return { text, changes };
}

/** `info.version` set to `version`, the rest kept as written. */
export function withVersion(text, version) {
  const doc = parseDocument(text);
  doc.setIn(['info', 'version'], version);
  return doc.toString(WRITE_OPTIONS);
}

/** Whether `npm run generate` may write `path` (relative to the repo root). */
export function isGeneratedOrDocument(path) {
  return path === 'openapi/openapi.yaml' || /^(packages|apps)\/[^/]+\/src\/generated\//.test(path);
}
