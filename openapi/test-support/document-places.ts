// Places of a document that the tests of the gate and the release edit, found through the
// operations model, never by name: the tests follow the document through any change or release.
// What they add carries made-up names (`zz_…`) that no real addition will take.
import { deref, type OpenApiDocument, operations } from '@browser-cloud/openapi-document';

type Node = Record<string, any>;

export interface Place {
  /** `PATCH /profiles/{id_or_name}`, as the gate names the operation. */
  operation: string;
  /** The schema (or the Path Item, for `operation`), inside the document: edits change the document. */
  node: Node;
  /** A property or parameter name there, where the place has one. */
  name: string;
}

const isObjectSchema = (node: unknown): node is Node =>
  typeof node === 'object' && node !== null && typeof (node as Node)['properties'] === 'object';

function first<T>(found: T | undefined, what: string): T {
  if (found === undefined) throw new Error(`the document has no ${what}, which this test edits`);
  return found;
}

/** The places of `document` (a parsed copy, edited by the test). */
export function placesOf(document: Node) {
  const all = [...operations(document as OpenApiDocument)];
  const label = (operation: (typeof all)[number]) => `${operation.method.toUpperCase()} ${operation.path}`;
  const media = (side: 'request' | 'response') =>
    all.flatMap((operation) => {
      const contents =
        side === 'request'
          ? [operation.requestBody?.content ?? {}]
          : Object.entries(operation.responses)
              .filter(([status]) => status.startsWith('2'))
              .map(([, response]) => response.content);
      return contents.flatMap((content) =>
        Object.values(content).map((m) => ({
          operation: label(operation),
          mediaType: m.mediaType,
          schema: m.schema?.schema,
        })),
      );
    });
  const json = (side: 'request' | 'response') =>
    media(side).flatMap(({ operation, mediaType, schema }) =>
      mediaType.includes('json') && isObjectSchema(schema) ? [{ operation, node: schema }] : [],
    );
  const enums = (side: 'request' | 'response') =>
    side === 'response'
      ? json('response').flatMap(({ operation, node }) =>
          Object.entries(node['properties'] as Record<string, Node>)
            .filter(([, property]) => Array.isArray(property['enum']) && property['enum'].length > 1)
            .map(([name, property]) => ({ operation, node: property, name })),
        )
      : all.flatMap((operation) =>
          operation.parameters
            .filter((p) => p.in === 'query' && Array.isArray((p.schema?.schema as Node | undefined)?.['enum']))
            .map((p) => ({ operation: label(operation), node: p.schema!.schema as Node, name: p.name })),
        );
  const optional = ({ operation, node }: { operation: string; node: Node }) => {
    const required: string[] = node['required'] ?? [];
    const name = Object.keys(node['properties']).find((property) => !required.includes(property));
    return name === undefined ? [] : [{ operation, node, name }];
  };
  const conditionals = Object.values((document['components']?.['schemas'] ?? {}) as Record<string, Node>).flatMap(
    (schema) =>
      ((schema['allOf'] ?? []) as Node[]).flatMap((part) => {
        const required: string[] | undefined = part['then']?.['required'];
        const name = Object.keys(schema['properties'] ?? {}).find((p) => required && !required.includes(p));
        return required && name ? [{ operation: '', node: part['then'] as Node, name }] : [];
      }),
  );
  return {
    /** An optional property of a JSON success response. */
    responseProperty: (): Place => first(json('response').flatMap(optional)[0], 'optional response property'),
    /** A JSON request body schema with properties; `name` is one of them. */
    requestBody: (): Place => {
      const found = json('request')[0];
      return first(
        found && { ...found, name: Object.keys(found.node['properties'] as object)[0]! },
        'JSON request body',
      );
    },
    /** A request body schema with a required property (`name`). */
    requiredRequestProperty: (): Place =>
      first(
        json('request').flatMap(({ operation, node }) =>
          ((node['required'] ?? []) as string[]).slice(0, 1).map((name) => ({ operation, node, name })),
        )[0],
        'required request property',
      ),
    /** A string enum of a JSON success response (`node` holds the `enum`). */
    responseEnum: (): Place => first(enums('response')[0], 'enum in a response'),
    /** A query parameter with an enum (`node` is its schema). */
    requestEnum: (): Place => first(enums('request')[0], 'query parameter with an enum'),
    /** The event data schema of a `text/event-stream` response; `name` is one of its properties. */
    eventData: (): Place => {
      const found = media('response').flatMap(({ operation, schema }) => {
        const data = (schema as Node | undefined)?.['x-sse-event-data'];
        const node = data === undefined ? undefined : deref<Node>(document, data);
        return isObjectSchema(node) ? [{ operation, node, name: Object.keys(node['properties'])[0]! }] : [];
      })[0];
      return first(found, 'SSE event data schema');
    },
    /** The `then` of a conditional rule, and a property of its schema that the rule does not require. */
    conditionalRule: (): Place => first(conditionals[0], 'conditional rule (allOf if/then)'),
    /** An operation with query parameters; `node` is its Operation Object. */
    queryOperation: (): Place => {
      const found = all.find((operation) => operation.parameters.some((p) => p.in === 'query'));
      return first(found && { operation: label(found), node: found.operation as Node, name: '' }, 'query parameter');
    },
    /**
     * A parameter whose schema is a `$ref` into a component's properties; `node` is the Parameter
     * Object as written (in the operation's list), `name` its name, `component` the schema holding
     * the property, `parameters` the list it is written in (a parameter added beside it goes there).
     */
    propertyRefParameter: (): Place & { component: Node; parameters: Node[] } => {
      const found = all.flatMap((operation) =>
        ((operation.operation as Node)['parameters'] ?? []).flatMap((node: Node, _: number, parameters: Node[]) => {
          const ref: unknown = node['schema']?.['$ref'];
          const match =
            typeof ref === 'string' ? /^(#\/components\/schemas\/[^/]+)\/properties\/[^/]+$/.exec(ref) : null;
          if (!match || typeof node['name'] !== 'string') return [];
          const component = deref<Node>(document, { $ref: match[1]! });
          return [{ operation: label(operation), node, name: node['name'] as string, component, parameters }];
        }),
      )[0];
      return first(found, "parameter whose schema is a $ref into a component's properties");
    },
    /** The first operation; `node` is its Path Item, `name` its method. */
    operation: (): Place => {
      const found = all[0];
      return first(
        found && { operation: label(found), node: document['paths'][found.path], name: found.method },
        'operation',
      );
    },
  };
}
