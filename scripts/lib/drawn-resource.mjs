// A resource of random shape, drawn from a seed, as an API team might add it to the document: the
// API workflow test's proof that the generators hold beyond the shapes they were written for.
// What it draws is what the lint accepts (closed schemas, a tag, bearer security, Error-bodied
// errors, examples), and it draws what broke generators before: names with dashes, dots, leading
// digits and reserved words; integer, number, boolean, enum, array, nested object, nullable,
// oneOf and allOf values, an item composed by allOf; integer path parameters, arrays in queries and inline arrays as answers.

/** Each noun: its singular, its plural (the collection's path segment) and how its component is named. */
const NOUNS = [
  { one: 'gadget', many: 'gadgets' },
  { one: 'widget-item', many: 'widget-items' },
  { one: 'saved.search', many: 'saved.searches' },
  { one: 'class', many: 'classes' },
  { one: 'default', many: 'defaults' },
  { one: 'constructor', many: 'constructors' },
  { one: '2fa-key', many: '2fa-keys' },
];

/** Properties an item may have beyond its id and name, one of each type (and a name with a dash). */
const PROPERTIES = {
  count: { schema: { type: 'integer', minimum: 0, maximum: 1000, description: 'How many.' }, example: 3 },
  ratio: { schema: { type: 'number', minimum: 0, maximum: 1, description: 'A share.' }, example: 0.25 },
  enabled: { schema: { type: 'boolean', description: 'Whether it is on.' }, example: true },
  status: { schema: { type: 'string', enum: ['active', 'paused'], description: 'Its state.' }, example: 'active' },
  labels: {
    schema: {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 32 },
      maxItems: 8,
      description: 'Labels.',
    },
    example: ['blue', 'team-a'],
  },
  nickname: {
    schema: { type: ['string', 'null'], maxLength: 32, description: 'Another name, or null.' },
    example: null,
  },
  priority: {
    schema: { allOf: [{ type: 'integer' }, { minimum: 1, maximum: 5 }], description: 'Typed by allOf members.' },
    example: 3,
  },
  'retry-count': {
    schema: { type: 'integer', minimum: 0, maximum: 9, description: 'Retries, a dashed name.' },
    example: 2,
  },
  settings: {
    schema: {
      type: 'object',
      description: 'Nested settings.',
      properties: {
        depth: { type: 'integer', minimum: 1, maximum: 5, description: 'How deep.' },
        mode: { type: 'string', enum: ['fast', 'safe'], description: 'How.' },
      },
      required: ['depth'],
      additionalProperties: false,
    },
    example: { depth: 2, mode: 'safe' },
  },
};

const pick = (random, list) => list[Math.floor(random() * list.length)];
/** Some of `list`, in its order, at least `least`. */
function some(random, list, least = 0) {
  const chosen = list.filter(() => random() < 0.5);
  return chosen.length >= least ? chosen : list.slice(0, least);
}
const words = (text) => text.split(/[^A-Za-z0-9]+/).filter(Boolean);
const pascal = (text) =>
  words(text)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
const camel = (text) => {
  const p = pascal(text);
  return p[0].toLowerCase() + p.slice(1);
};

/**
 * A resource drawn from `random` whose names none of `taken` (the document's paths, component
 * names, operationIds and tags) holds: its tag, its component schemas, and its operations, each
 * `[path, method, operation]`. Always a create and a read of one; a list, an update and a delete
 * at random.
 * @param {() => number} random
 * @param {{ paths: string[], components: string[], operationIds: string[], tags: string[] }} taken
 */
export function drawnResource(random, taken) {
  const free = NOUNS.filter(
    ({ many }) => !taken.paths.some((path) => path === `/${many}` || path.startsWith(`/${many}/`)),
  );
  const noun = pick(random, free);
  if (!noun) return undefined;
  const Noun = pascal(noun.one);
  // The component as written: plain, with a dash, or with a version prefix and a dot.
  const component = pick(random, [Noun, words(noun.one).map(pascal).join('-'), `v1.${Noun}`]);
  if (taken.components.includes(component)) return undefined;
  const tag = pascal(noun.many);
  if (taken.tags.includes(tag)) return undefined;

  const integerId = random() < 0.5;
  const key = pick(random, ['id', 'item-id', 'item.id', 'key']);
  const idExample = integerId ? 42 : `${camel(noun.one).slice(0, 3).toLowerCase()}_01HZY5C7D9E1F3G5H7J9K1M3NA`;
  const idSchema = integerId
    ? { type: 'integer', minimum: 1, description: 'Unique identifier.' }
    : { type: 'string', minLength: 1, description: 'Unique identifier.' };
  const extra = some(random, Object.keys(PROPERTIES), 2);
  const unique = random() < 0.5;
  const name = {
    type: 'string',
    minLength: 1,
    maxLength: 64,
    description: `The ${noun.one}'s name.`,
    ...(unique && { 'x-unique': true }),
  };
  const properties = {
    id: idSchema,
    name,
    ...Object.fromEntries(extra.map((p) => [p, PROPERTIES[p].schema])),
    created_at: { type: 'string', format: 'date-time', description: 'Creation time.' },
  };
  const item = {
    id: idExample,
    name: `first-${words(noun.one).join('-')}`,
    ...Object.fromEntries(extra.map((p) => [p, PROPERTIES[p].example])),
    created_at: '2026-10-02T09:12:44Z',
  };
  const ref = { $ref: `#/components/schemas/${component}` };
  const closed = (description, props, required) => ({
    type: 'object',
    description,
    properties: props,
    required,
    additionalProperties: false,
  });
  const requestName = `${component}${component.includes('-') ? '-' : ''}Request`;
  // What a create and an update send: the name and the drawn properties but the id and the timestamp.
  // Each a `$ref` to the item's own (as LogStreamQuery's parameters are written): one definition, so
  // that an enum value added to it is one the item may hold too.
  // Sometimes composed as OpenAPI documents extend a schema: a base of what the server fills (the
  // id, the creation time) and a component of the item's own properties, which the request's
  // properties refer to, the whole closed by unevaluatedProperties.
  const dash = component.includes('-') ? '-' : '';
  const [base, fields] = [`${component}${dash}Base`, `${component}${dash}Fields`];
  const composed = random() < 0.3 && !taken.components.includes(base) && !taken.components.includes(fields);
  const own = Object.fromEntries(Object.entries(properties).filter(([p]) => p !== 'id' && p !== 'created_at'));
  const ownAt = `#/components/schemas/${composed ? fields : component}/properties`;
  const settable = Object.fromEntries(Object.keys(own).map((p) => [p, { $ref: `${ownAt}/${p}` }]));
  const description = `A ${noun.one}, drawn by the API workflow test.`;
  const schemas = composed
    ? {
        [base]: {
          description: `What the server fills in a ${noun.one}.`,
          properties: { id: properties.id, created_at: properties.created_at },
          required: ['id', 'created_at'],
        },
        [fields]: { description: `What a ${noun.one} holds of its own.`, properties: own, required: ['name'] },
        [component]: {
          type: 'object',
          title: Noun,
          description,
          allOf: [{ $ref: `#/components/schemas/${base}` }, { $ref: `#/components/schemas/${fields}` }],
          unevaluatedProperties: false,
        },
      }
    : { [component]: { ...closed(description, properties, ['id', 'name', 'created_at']), title: Noun } };
  schemas[requestName] = closed(`What a ${noun.one} is made of.`, settable, ['name']);
  // A name of its own: the item of the examples is there from the start (a unique name would be taken).
  const bodyExample = {
    ...Object.fromEntries(Object.entries(item).filter(([p]) => p !== 'id' && p !== 'created_at')),
    name: `my-${words(noun.one).join('-')}`,
  };

  const headers = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };
  const errors = (...names) =>
    Object.fromEntries(names.map((n) => [ERROR_STATUS[n], { $ref: `#/components/responses/${n}` }]));
  const json = (schema, value, summary) => ({
    'application/json': { schema, examples: { [summary.replaceAll(' ', '_')]: { summary, value } } },
  });
  // An item answered shows each value of its enums in an example of its own, as the document's
  // convention asks of every answer.
  const enumExamples = (value) =>
    value === item
      ? Object.fromEntries(
          Object.entries(properties)
            .filter(([p, schema]) => Array.isArray(schema.enum) && item[p] !== undefined)
            .flatMap(([p, schema]) =>
              schema.enum
                .filter((v) => v !== item[p])
                .map((v) => [`${p}_${v}`, { summary: `${p} ${v}`, value: { ...item, [p]: v } }]),
            ),
        )
      : {};
  const answer = (status, description, schema, value) => {
    const content = json(schema, value, description.replace(/\.$/, ''));
    Object.assign(content['application/json'].examples, enumExamples(value));
    return { [status]: { description, headers, content } };
  };
  const body = () => ({
    required: true,
    content: json({ $ref: `#/components/schemas/${requestName}` }, bodyExample, `A ${noun.one}`),
  });
  // An operationId: the verb and the noun, or for one verb drawn, the bare verb (`delete` is a reserved word).
  const bare = random() < 0.7 ? pick(random, ['delete', 'create', 'get']) : undefined;
  const operationId = (verb) =>
    verb === bare && !taken.operationIds.includes(verb)
      ? verb
      : `${verb}${pascal(verb === 'list' ? noun.many : noun.one)}`;
  const operation = (verb, summary, rest) => ({
    operationId: operationId(verb),
    summary,
    description: `${summary}, an operation the API workflow test drew.`,
    tags: [tag],
    security: [{ bearerAuth: [] }],
    ...rest,
  });
  const collection = `/${noun.many}`;
  const itemPath = `${collection}/{${key}}`;
  const idParameter = {
    name: key,
    in: 'path',
    required: true,
    description: `The ${noun.one} ID.`,
    schema: { ...idSchema, description: undefined },
    example: idExample,
  };
  delete idParameter.schema.description;
  // A taken name is a 409, with the Error body, where the name is unique.
  const conflict = unique && {
    409: {
      description: `Another ${noun.one} has this name.`,
      // A conflict is not worth sending again (the document's convention for every 409).
      headers: { ...headers, 'X-Should-Retry': { $ref: '#/components/headers/ShouldRetry' } },
      content: json(
        { $ref: '#/components/schemas/Error' },
        { code: 'conflict', message: 'the name is taken' },
        'The name is taken',
      ),
    },
  };
  const onItem = (rest, ...more) => ({
    parameters: [idParameter],
    ...rest,
    responses: {
      ...rest.responses,
      ...errors('BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', ...more, 'InternalError'),
    },
  });
  const operations = [
    [
      collection,
      'post',
      operation('create', `Create a ${noun.one}`, {
        requestBody: body(),
        responses: {
          ...answer(201, `The ${noun.one} created.`, ref, item),
          ...errors('BadRequest', 'Unauthorized', 'Forbidden', 'InternalError'),
          ...conflict,
        },
      }),
    ],
    [
      itemPath,
      'get',
      operation('get', `Get a ${noun.one}`, onItem({ responses: answer(200, `The ${noun.one}.`, ref, item) })),
    ],
  ];
  if (random() < 0.7) {
    // A list: paged by limit and offset, filtered by an array in the query; answering an inline array or a page.
    const inline = random() < 0.5;
    const listSchema = inline
      ? { type: 'array', items: ref, maxItems: 100 }
      : { $ref: `#/components/schemas/${component}${component.includes('-') ? '-' : ''}Page` };
    if (!inline)
      schemas[`${component}${component.includes('-') ? '-' : ''}Page`] = closed(
        `A page of ${noun.many}.`,
        {
          data: { type: 'array', items: ref, description: `The ${noun.many}.` },
          has_more: { type: 'boolean', description: 'Whether more follow.' },
        },
        ['data', 'has_more'],
      );
    const query = (qname, schema, example, description) => ({
      name: qname,
      in: 'query',
      required: false,
      description,
      schema,
      example,
    });
    operations.push([
      collection,
      'get',
      operation('list', `List ${noun.many}`, {
        parameters: [
          query('limit', { type: 'integer', minimum: 1, maximum: 100 }, 20, `At most this many ${noun.many}.`),
          query('offset', { type: 'integer', minimum: 0 }, 0, `How many ${noun.many} to skip.`),
          query(
            'names',
            { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 10 },
            ['first'],
            'Only these names.',
          ),
          query('archived', { type: 'boolean' }, false, `Whether archived ${noun.many} are listed too.`),
          query(
            'since',
            { oneOf: [{ type: 'boolean' }, { type: 'integer', minimum: 0 }] },
            3,
            'Only those changed since this many days, or true for any change: a value typed by its oneOf members.',
          ),
          {
            name: 'X-Trace-Depth',
            in: 'header',
            required: false,
            description: 'How much of the request to trace, a header parameter.',
            schema: { type: 'integer', minimum: 0, maximum: 9 },
            example: 1,
          },
        ],
        responses: {
          ...answer(200, `The ${noun.many}.`, listSchema, inline ? [item] : { data: [item], has_more: false }),
          ...errors('BadRequest', 'Unauthorized', 'Forbidden', 'InternalError'),
        },
      }),
    ]);
  }
  if (random() < 0.5)
    operations.push([
      itemPath,
      'patch',
      operation(
        'update',
        `Update a ${noun.one}`,
        onItem({
          requestBody: body(),
          responses: { ...answer(200, `The ${noun.one} updated.`, ref, item), ...conflict },
        }),
      ),
    ]);
  if (random() < 0.6)
    operations.push([
      itemPath,
      'delete',
      operation(
        'delete',
        `Delete a ${noun.one}`,
        onItem({ responses: { 204: { description: `The ${noun.one} was deleted.`, headers } } }),
      ),
    ]);
  return {
    tag: { name: tag, description: `${pascal(noun.many)}, drawn by the API workflow test.` },
    schemas,
    operations,
  };
}

const ERROR_STATUS = { BadRequest: 400, Unauthorized: 401, Forbidden: 403, NotFound: 404, InternalError: 500 };
