import type { Validator } from '@browser-cloud/api-types';

/** What the front needs to know of one operation of the document. */
export interface DocumentOperation {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** The operation's own `security`, when it has one. */
  readonly security: readonly Record<string, readonly string[]>[] | undefined;
  readonly parameters: readonly {
    readonly name: string;
    readonly in: string;
    readonly required: boolean;
    /** The `$ref` the parameter's schema is written as, if it is one. */
    readonly schemaRef: string | undefined;
    /** The JSON type of its (resolved) schema, which the parameter's text is read as. */
    readonly type: string | undefined;
  }[];
  readonly requestBody:
    | {
        readonly required: boolean;
        /** The `$ref` the body's schema is written as, by media type. */
        readonly content: Readonly<Record<string, string | undefined>>;
      }
    | undefined;
}

/** The checks of one operation, each done by a validator generated from the document. */
export interface OperationRules {
  readonly operationId: string;
  /** Upper case, as in a request line. */
  readonly method: string;
  readonly template: string;
  readonly pattern: RegExp;
  readonly pathNames: readonly string[];
  readonly requiresToken: boolean;
  readonly validatePath: Validator<unknown>;
  /** Declared query parameters and the JSON type their text is read as. */
  readonly queryTypes: ReadonlyMap<string, string | undefined>;
  /** Validates the whole query as one object (rules that span parameters included). */
  readonly validateQuery: Validator<unknown> | undefined;
  readonly body:
    | { readonly required: boolean; readonly mediaTypes: readonly string[]; readonly validate: Validator<unknown> }
    | undefined;
}

export type Validators = Readonly<Record<string, unknown>>;

/**
 * Pairs each operation with the generated validators of `@browser-cloud/api-types/validators`,
 * by the generator's names: `validate<OperationId>Path` for the path parameters and
 * `validate<Schema>` for a component schema. The query is checked as the one component object
 * schema its parameters point into (`#/components/schemas/LogStreamQuery/properties/source`),
 * which is where the document states rules over several parameters.
 * @throws Error naming the operation and the missing validator: the front checks every operation
 *   of the document or does not start.
 */
export function operationRules(
  operations: Iterable<DocumentOperation>,
  validators: Validators,
  documentSecurity: readonly Record<string, readonly string[]>[] | undefined,
): OperationRules[] {
  const rules: OperationRules[] = [];
  for (const operation of operations) {
    const find = (name: string, what: string): Validator<unknown> => {
      const validator = validators[name];
      if (typeof validator !== 'function') {
        throw new Error(
          `${operation.operationId}: no generated validator ${name} for its ${what}; add it to the generator's validated schemas`,
        );
      }
      return validator as Validator<unknown>;
    };
    const pathNames = operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    const query = operation.parameters.filter((p) => p.in === 'query');
    const querySchemas = new Set(query.map((p) => componentOf(p.schemaRef)));
    if (querySchemas.size > 1 || querySchemas.has(undefined)) {
      if (query.length > 0) {
        throw new Error(
          `${operation.operationId}: its query parameters must point into one component object schema, which states the query's rules`,
        );
      }
    }
    const [querySchema] = querySchemas;
    let body: OperationRules['body'];
    if (operation.requestBody) {
      const content = Object.entries(operation.requestBody.content);
      const schemas = new Set(content.map(([, schema]) => componentOf(schema, true)));
      const [schema] = schemas;
      if (schemas.size !== 1 || schema === undefined) {
        throw new Error(`${operation.operationId}: its request body must be one component schema ($ref)`);
      }
      body = {
        required: operation.requestBody.required,
        mediaTypes: content.map(([mediaType]) => mediaType.toLowerCase()),
        validate: find(`validate${schema}`, 'request body'),
      };
    }
    const security = operation.security ?? documentSecurity ?? [];
    rules.push({
      operationId: operation.operationId,
      method: operation.method.toUpperCase(),
      template: operation.path,
      pattern: templatePattern(operation.path),
      pathNames,
      // An empty requirement ({}) makes authentication optional.
      requiresToken: security.length > 0 && security.every((requirement) => Object.keys(requirement).length > 0),
      validatePath: find(`validate${pascal(operation.operationId)}Path`, 'path parameters'),
      queryTypes: new Map(query.map((p) => [p.name, p.type])),
      validateQuery: querySchema === undefined ? undefined : find(`validate${querySchema}`, 'query'),
      body,
    });
  }
  return rules;
}

/** `#/components/schemas/X` (or, unless `whole`, `#/components/schemas/X/properties/…`) → `X`. */
function componentOf(ref: string | undefined, whole = false): string | undefined {
  const match = ref === undefined ? null : /^#\/components\/schemas\/([^/]+)(\/properties\/[^/]+)?$/.exec(ref);
  if (!match || (whole && match[2] !== undefined)) return undefined;
  return match[1];
}

function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * `/profiles/{id_or_name}` → a pattern whose groups are the raw (still encoded) segments. An
 * empty segment matches too, so that `/profiles/` is refused by the parameter's own rule
 * (`minLength`) rather than answered 404.
 */
function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '([^/]*)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}
