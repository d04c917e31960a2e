// Realistic edits of openapi/openapi.yaml, the kinds the API team makes, drawn at random from a
// seed by scripts/check-api-workflow.mjs. Each edit goes through the YAML document (comments and
// layout kept) and finds its place through the operations model, so that it applies to whatever
// the document holds by then.
import { operations, parseOpenApiDocument, parsePointer } from '@browser-cloud/openapi-document';
import { isScalar, parseDocument, visit } from 'yaml';
import { drawnResource } from './drawn-resource.mjs';

/** How the document is written: `yaml` writes it back byte for byte with these options. */
const WRITE_OPTIONS = { lineWidth: 0, flowCollectionPadding: false, doubleQuotedAsJSON: true };

/** `value` as a node of `doc`; parts of the document are written once more, as copies (no YAML alias). */
const copyOf = (doc, value) => doc.createNode(value, { aliasDuplicateObjects: false });

/** `operation` written at `path` and `method`, the Path Item made where there is none. */
function setOperation(doc, path, method, operation) {
  if (!doc.hasIn(['paths', path])) doc.setIn(['paths', path], doc.createNode({}));
  doc.setIn(['paths', path, method], copyOf(doc, operation));
}

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
  const schemas = model.flatMap(({ success, responses }) =>
    success ? [responses[success.status]?.content[success.mediaType]?.media.schema, success.eventData?.schema] : [],
  );
  return [...new Set(schemas.map(componentOf).filter(Boolean))];
}

/** Every object under the component schemas, with its path (an item of a list by its index). */
function schemaNodes(json) {
  const nodes = [];
  const walk = (node, path) => {
    if (node === null || typeof node !== 'object') return;
    if (!Array.isArray(node)) nodes.push([path, node]);
    for (const [key, value] of Object.entries(node)) walk(value, [...path, Array.isArray(node) ? Number(key) : key]);
  };
  walk(json.components.schemas, ['components', 'schemas']);
  return nodes;
}

/** An optional property, one of `names` it has not, added to one of `components`: what was added. */
function addProperty(doc, { json, random }, components, names, schemaOf) {
  const component = pick(random, components);
  const name =
    component && pick(random, fresh(names, Object.keys(json.components.schemas[component].properties ?? {})));
  if (!name) return undefined;
  doc.setIn(['components', 'schemas', component, 'properties', name], doc.createNode(schemaOf(name)));
  return `optional ${component}.${name}`;
}

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
  'add response property'(doc, context) {
    const names = ['region', 'labels', 'note', 'origin', 'owner', 'retention_days'];
    const added = addProperty(doc, context, answerComponents(context.model), names, (name) => ({
      ...(name === 'labels' ? { type: 'array', items: { type: 'string' } } : { type: 'string' }),
      description: `The ${name.replace('_', ' ')}.`,
    }));
    return added && `${added} added to an answer`;
  },
  'remove response property'(doc, { model, json, random }) {
    // How many schemas have a property of each name.
    const counts = new Map();
    for (const [, node] of schemaNodes(json)) {
      for (const name of Object.keys(node.properties ?? {})) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
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
      doc.setIn([...parsePointer(object), 'properties', name], doc.createNode(schema));
      parameter.schema = { $ref: `#${object}/properties/${name}` };
    } else parameter.schema = schema;
    const at = ['paths', operation.path, operation.method, 'parameters'];
    if (!doc.hasIn(at)) doc.setIn(at, doc.createNode([]));
    doc.getIn(at).add(doc.createNode(parameter));
    return `optional query parameter ${name} added to ${operation.operationId}`;
  },
  'add body property'(doc, context) {
    const bodies = context.model.map(({ requestBody }) => requestBody && Object.values(requestBody.content)[0]?.media);
    const components = [...new Set(bodies.map((media) => componentOf(media?.schema)).filter(Boolean))];
    // Names no query parameter takes here: an argument of a tool or a command is one or the other.
    const added = addProperty(doc, context, components, ['note', 'priority', 'reason'], (name) => ({
      type: 'string',
      maxLength: 255,
      description: `A ${name} for this request.`,
    }));
    return added && `${added} added to a request body`;
  },
  'add enum value'(doc, { model, json, random }) {
    const answers = answerComponents(model);
    const enums = schemaNodes(json)
      .filter(([, node]) => Array.isArray(node.enum) && node.enum.every((v) => typeof v === 'string'))
      .map(([path, node]) => [path, node.enum]);
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
    for (const { success, responses } of answers.includes(component) ? model : []) {
      const media = success && responses[success.status]?.content[success.mediaType];
      const [first] = Object.values(media?.media.examples ?? {});
      if (componentOf(media?.media.schema) !== component || first?.value === undefined) continue;
      doc.setIn(
        [...parsePointer(media.pointer), 'examples', value.toLowerCase()],
        doc.createNode({ summary: `${property} ${value}`, value: { ...first.value, [property]: value } }),
      );
    }
    return `enum value ${value} added at ${path.slice(2).join('.')}`;
  },
  'add resource'(doc, { model, json, random }) {
    const taken = {
      paths: Object.keys(json.paths),
      components: Object.keys(json.components.schemas),
      operationIds: model.map((o) => o.operationId),
      tags: (json.tags ?? []).map((t) => t.name),
    };
    const done = [];
    // Sometimes two at once: their names, stores, commands and tools must keep apart.
    for (let left = random() < 0.3 ? 2 : 1; left > 0; left--) {
      const drawn = drawnResource(random, taken);
      if (!drawn) break;
      doc.get('tags').add(copyOf(doc, drawn.tag));
      for (const [name, schema] of Object.entries(drawn.schemas))
        doc.setIn(['components', 'schemas', name], copyOf(doc, schema));
      for (const [path, method, operation] of drawn.operations) setOperation(doc, path, method, operation);
      taken.paths.push(...drawn.operations.map(([path]) => path));
      taken.components.push(...Object.keys(drawn.schemas));
      taken.operationIds.push(...drawn.operations.map(([, , o]) => o.operationId));
      taken.tags.push(drawn.tag.name);
      const added = drawn.operations.map(([path, method, o]) => `${method.toUpperCase()} ${path} (${o.operationId})`);
      done.push(`resource ${drawn.tag.name} added: ${added.join(', ')}`);
    }
    return done.length > 0 ? done.join('; ') : undefined;
  },
  'add operation'(doc, { model, json, random }) {
    const templates = operationTemplates(model, json).filter(
      ({ method, path, operation }) =>
        !json.paths[path]?.[method] && !model.some((o) => o.operationId === operation.operationId),
    );
    const template = pick(random, templates);
    if (!template) return undefined;
    const { method, path, operation, component, tag } = template;
    if (tag && !json.tags?.some((t) => t.name === tag.name)) doc.get('tags').add(doc.createNode(tag));
    if (component) doc.setIn(['components', 'schemas', component.name], copyOf(doc, component.schema));
    setOperation(doc, path, method, operation);
    return `operation ${method.toUpperCase()} ${path} (${operation.operationId}) added`;
  },
};

export const EDIT_KINDS = Object.keys(EDITS);

/**
 * Operations an API team adds, made of the parts of one the document has on a resource's own path
 * (`PATCH /profiles/{id_or_name}`, answering a `Profile`): that resource's read and delete (as the
 * official SDK has them: `profiles.retrieve` answers the resource, `profiles.delete` no body), and
 * the read of a resource the document does not cover yet, `GET /extensions/{id_or_name}`, with a
 * tag and a schema of its own (the required properties of the first).
 */
function operationTemplates(model, json) {
  return model.flatMap(({ path, operation: written, parameters, success, responses }) => {
    const { response, content } = (success && responses[success.status]) ?? {};
    const media = content?.['application/json']?.media;
    const component = componentOf(media?.schema);
    const key = /\{(\w+)\}$/.exec(path)?.[1];
    const schema = component && json.components.schemas[component];
    const first = Object.values(media?.examples ?? {})[0]?.value;
    // Made of a resource whose schema lists its properties and required ones, with an example: a
    // resource an earlier draw added may compose its schema (allOf) or require nothing.
    if (!key || !Array.isArray(schema?.required) || !schema.properties || typeof first !== 'object' || first === null)
      return [];
    const noun = component.toLowerCase();
    const picked = (object) => Object.fromEntries(schema.required.map((name) => [name, object[name]]));
    const by = key.replaceAll('_', ' ');
    // The path parameter's schema and example; its vendor extensions (when a retry is safe) are the written operation's.
    const { schema: value, example } = parameters.find((p) => p.name === key).parameter;
    const errors = Object.entries(written.responses).filter(([status, { $ref }]) => /^[45]/.test(status) && $ref);
    /** An operation on `at` answering `responses`, with the written one's security, path parameter and errors. */
    const template = (method, at, resource, summary, responses, tag = written.tags[0]) => ({
      method,
      path: at,
      operation: {
        // camelCase, as the lint asks, whatever the component's name (`Widget-Item`, `v1.Gadget`).
        operationId: `${method}${resource
          .split(/[^A-Za-z0-9]+/)
          .filter(Boolean)
          .map((word) => word[0].toUpperCase() + word.slice(1))
          .join('')}`,
        summary,
        description: `${summary}, by its ${by}.`,
        tags: [tag],
        security: written.security,
        parameters: [{ name: key, in: 'path', required: true, description: `Its ${by}.`, schema: value, example }],
        responses: { ...responses, ...Object.fromEntries(errors) },
      },
    });
    const extension = {
      description: 'The extension.',
      headers: response.headers,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Extension' },
          examples: { extension: { value: picked(first) } },
        },
      },
    };
    return [
      template('get', path, component, `Get a ${noun}`, {
        [success.status]: { ...response, description: `The ${noun}.` },
      }),
      template('delete', path, component, `Delete a ${noun}`, {
        204: { description: `The ${noun} was deleted.`, headers: response.headers },
      }),
      {
        ...template('get', `/extensions/{${key}}`, 'Extension', 'Get an extension', { 200: extension }, 'Extensions'),
        tag: { name: 'Extensions', description: 'Browser extensions uploaded to the project.' },
        component: {
          name: 'Extension',
          schema: {
            ...schema,
            title: 'Extension',
            description: 'A browser extension.',
            properties: picked(schema.properties),
          },
        },
      },
    ];
  });
}

/** The document after one edit of `kind`, or undefined when it offers that edit no place. */
export function applyEdit(text, kind, random) {
  const doc = parseDocument(text);
  const json = doc.toJS();
  const done = EDITS[kind](doc, { model: [...operations(parseOpenApiDocument(text))], json, random });
  return done === undefined ? undefined : { text: doc.toString(WRITE_OPTIONS), done };
}

/** The edits every draw starts with: an operation on a resource the document has, and a resource of random shape. */
const ALWAYS = ['add operation', 'add resource'];

/**
 * `count` edits drawn from `seed`: always an added operation and an added resource (the proof that
 * new operations need no code, whatever their shape), then others of distinct kinds, each applied
 * to the document the ones before it left.
 */
export function drawChanges(text, seed, count) {
  const random = seeded(seed);
  const kinds = EDIT_KINDS.filter((kind) => !ALWAYS.includes(kind));
  // Fisher–Yates, from the seed.
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
  }
  const changes = [];
  for (const kind of [...ALWAYS, ...kinds]) {
    if (changes.length >= count) break;
    const edited = applyEdit(text, kind, random);
    if (edited === undefined) continue;
    text = edited.text;
    changes.push({ kind, done: edited.done });
  }
  // What the additions named, in their order: `… (getProfile) added`, `resource …: POST /x (createX), …`.
  const added = changes
    .filter((c) => ALWAYS.includes(c.kind))
    .flatMap((c) => [...c.done.matchAll(/\((\w+)\)/g)].map((m) => m[1]));
  return { text, changes, added };
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

/** The resources of {@link withCrudOperations}: nouns none of the layers treats apart (the sandbox keeps none). */
const CRUD_RESOURCES = [
  ...['widgets', 'gadgets', 'folders', 'notes', 'tasks', 'teams', 'tickets', 'reports', 'alerts', 'badges'],
  ...['channels', 'comments', 'devices', 'invoices', 'layouts', 'orders', 'pages', 'rules', 'sites', 'templates'],
  ...['topics', 'webhooks', 'zones', 'bundles'],
];

/**
 * The document with `count` synthetic CRUD operations added, five a resource over `count / 5` new
 * resources (`/widgets`: list, create, get, update, delete), each with the conventions the lint
 * asks (closed schemas, a tag, bearer security, Error-bodied errors, examples): the service at its
 * size, for `npm run bench:scale` and the tests of what a large document does.
 * @throws Error beyond the resources it has names for.
 */
export function withCrudOperations(text, count) {
  const doc = parseDocument(text);
  // Nouns the document has no path for yet (an API workflow draw may have added `/gadgets`).
  const paths = Object.keys(doc.toJS().paths ?? {});
  const nouns = CRUD_RESOURCES.filter(
    (plural) => !paths.some((p) => p === `/${plural}` || p.startsWith(`/${plural}/`)),
  );
  if (count > nouns.length * 5) throw new Error(`at most ${nouns.length * 5} operations`);
  const security = [{ bearerAuth: [] }];
  const headers = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };
  const errors = (...names) =>
    Object.fromEntries(names.map((name) => [ERROR_STATUS[name], { $ref: `#/components/responses/${name}` }]));
  for (let index = 0; index < count; index += 5) {
    const plural = nouns[index / 5];
    const noun = plural.slice(0, -1);
    const Noun = noun[0].toUpperCase() + noun.slice(1);
    const Nouns = `${Noun}s`;
    const tag = Nouns;
    const id = `${noun.slice(0, 3)}_01HZY5C7D9E1F3G5H7J9K1M3NA`;
    const item = { id, name: `first-${noun}`, created_at: '2026-10-02T09:12:44Z' };
    const ref = (name) => ({ $ref: `#/components/schemas/${name}` });
    const json = (schema, example, summary) => ({
      'application/json': { schema, examples: { [summary.replaceAll(' ', '_')]: { summary, value: example } } },
    });
    const answer = (status, description, schema, example) => ({
      [status]: { description, headers, content: json(schema, example, description.slice(0, -1)) },
    });
    const body = (name) => ({ required: true, content: json(ref(name), { name: `my-${noun}` }, `A ${noun} name`) });
    const idParameter = {
      name: 'id',
      in: 'path',
      required: true,
      description: `The ${noun} ID.`,
      schema: { type: 'string', minLength: 1 },
      example: id,
    };
    const operation = (operationId, summary, extra) => ({
      operationId,
      summary,
      description: `${summary}, a synthetic operation of the scale benchmark.`,
      tags: [tag],
      security,
      ...extra,
    });
    const list = operation(`list${Nouns}`, `List ${plural}`, {
      parameters: [
        {
          name: 'limit',
          in: 'query',
          required: false,
          description: `At most this many ${plural}.`,
          schema: { type: 'integer', minimum: 1, maximum: 100 },
          example: 20,
        },
      ],
      responses: {
        ...answer(200, `The ${plural}.`, ref(`${Noun}List`), { data: [item], has_more: false }),
        ...errors('BadRequest', 'Unauthorized', 'Forbidden', 'InternalError'),
      },
    });
    const create = operation(`create${Noun}`, `Create a ${noun}`, {
      requestBody: body(`Create${Noun}Request`),
      responses: {
        ...answer(201, `The ${noun} created.`, ref(Noun), item),
        ...errors('BadRequest', 'Unauthorized', 'Forbidden', 'InternalError'),
      },
    });
    const onOne = (extra) => ({
      parameters: [idParameter],
      ...extra,
      responses: {
        ...extra.responses,
        ...errors('BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'InternalError'),
      },
    });
    const get = operation(
      `get${Noun}`,
      `Get a ${noun}`,
      onOne({ responses: answer(200, `The ${noun}.`, ref(Noun), item) }),
    );
    const update = operation(
      `update${Noun}`,
      `Update a ${noun}`,
      onOne({
        requestBody: body(`Update${Noun}Request`),
        responses: answer(200, `The ${noun} updated.`, ref(Noun), item),
      }),
    );
    const remove = operation(
      `delete${Noun}`,
      `Delete a ${noun}`,
      onOne({ responses: { 204: { description: `The ${noun} was deleted.`, headers } } }),
    );
    const name = { type: 'string', minLength: 1, maxLength: 255, description: `The ${noun}'s name.` };
    const closed = (title, description, properties, required) => ({
      type: 'object',
      title,
      description,
      properties,
      required,
      additionalProperties: false,
    });
    const resource = closed(
      Noun,
      `A ${noun}.`,
      {
        id: { type: 'string', description: 'Unique identifier' },
        name,
        created_at: { type: 'string', format: 'date-time', description: 'Creation time' },
      },
      ['id', 'name', 'created_at'],
    );
    const page = closed(
      `${Noun}List`,
      `A page of ${plural}.`,
      {
        data: { type: 'array', items: ref(Noun), description: `The ${plural}.` },
        has_more: { type: 'boolean', description: 'Whether more follow.' },
      },
      ['data', 'has_more'],
    );
    const request = (verb) =>
      closed(`${verb}${Noun}Request`, `Body of a ${noun}'s ${verb.toLowerCase()}.`, { name }, ['name']);
    // Each operation with the component schemas it uses (the lint refuses an unused one). `count`
    // need not be a multiple of five: the last resource gets the first of its operations.
    const added = [
      [`/${plural}`, 'get', list, { [Noun]: resource, [`${Noun}List`]: page }],
      [`/${plural}`, 'post', create, { [Noun]: resource, [`Create${Noun}Request`]: request('Create') }],
      [`/${plural}/{id}`, 'get', get, { [Noun]: resource }],
      [`/${plural}/{id}`, 'patch', update, { [Noun]: resource, [`Update${Noun}Request`]: request('Update') }],
      [`/${plural}/{id}`, 'delete', remove, {}],
    ].slice(0, count - index);
    for (const [path, method, written, schemas] of added) {
      setOperation(doc, path, method, written);
      for (const [schema, value] of Object.entries(schemas))
        doc.setIn(['components', 'schemas', schema], copyOf(doc, value));
    }
    doc.get('tags').add(doc.createNode({ name: tag, description: `${Nouns}, synthetic (the scale benchmark).` }));
  }
  return doc.toString(WRITE_OPTIONS);
}

const ERROR_STATUS = { BadRequest: 400, Unauthorized: 401, Forbidden: 403, NotFound: 404, InternalError: 500 };
