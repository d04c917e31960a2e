import type { ErrorObject } from 'ajv';

/**
 * A JSON Schema validator compiled from the OpenAPI document: a type guard that leaves the
 * reasons for its last `false` in `errors`.
 */
export interface Validator<T> {
  (data: unknown): data is T;
  errors?: ErrorObject[] | null;
}

export type { ErrorObject };
