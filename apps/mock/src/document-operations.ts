import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import * as generatedValidators from '@browser-cloud/api-types/validators';
import { type DocumentOperation, type OperationRules, operationRules } from './operation-rules.js';

type Node = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The operations of the document at `path`, and its top-level `security`. */
export function documentOperations(path: string): {
  operations: DocumentOperation[];
  security: DocumentOperation['security'];
} {
  const document = parse(readFileSync(path, 'utf8')) as Node;
  const follow = (node: unknown): Node => {
    let current = node as Node;
    for (let hops = 0; typeof current?.['$ref'] === 'string' && hops < 32; hops++) {
      current = (current['$ref'] as string)
        .slice(2)
        .split('/')
        .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<Node>((at, key) => at?.[key] as Node, document);
    }
    return current ?? {};
  };
  const operations: DocumentOperation[] = [];
  for (const [template, item] of Object.entries((document['paths'] ?? {}) as Record<string, Node>)) {
    for (const method of METHODS) {
      const operation = item[method] as Node | undefined;
      if (!operation) continue;
      const parameters = [
        ...((item['parameters'] as unknown[]) ?? []),
        ...((operation['parameters'] as unknown[]) ?? []),
      ]
        .map(follow)
        .map((p) => {
          const schema = p['schema'] as Node | undefined;
          const type = follow(schema)['type'];
          return {
            name: String(p['name']),
            in: String(p['in']),
            required: p['in'] === 'path' || p['required'] === true,
            schemaRef: typeof schema?.['$ref'] === 'string' ? schema['$ref'] : undefined,
            type: typeof type === 'string' ? type : undefined,
          };
        });
      const body = operation['requestBody'] ? follow(operation['requestBody']) : undefined;
      operations.push({
        operationId: String(operation['operationId']),
        method,
        path: template,
        security: operation['security'] as DocumentOperation['security'],
        parameters,
        requestBody: body && {
          required: body['required'] === true,
          content: Object.fromEntries(
            Object.entries((body['content'] ?? {}) as Record<string, Node>).map(([mediaType, media]) => {
              const ref = (media['schema'] as Node | undefined)?.['$ref'];
              return [mediaType, typeof ref === 'string' ? ref : undefined];
            }),
          ),
        },
      });
    }
  }
  return { operations, security: document['security'] as DocumentOperation['security'] };
}

/** The front's checks for every operation of the document at `path`, by the generated validators. */
export function documentRules(path: string): OperationRules[] {
  const { operations, security } = documentOperations(path);
  return operationRules(operations, generatedValidators, security);
}
