// The browser telemetry categories, read from the document: the properties of the schema that
// holds the per-category capture flags, and whether each is captured by default. The seed's
// telemetry rules (which categories a configuration captures) are hand-written in
// @browser-cloud/api-types; what they apply them to is data.
import { OpenApiDocumentError } from './document-error.js';
import type { OpenApiDocument } from './document-types.js';
import { formatPointer } from './json-pointer.js';

/** The component whose properties are the categories: the telemetry rules of @browser-cloud/api-types read it. */
export const TELEMETRY_CATEGORIES_SCHEMA = 'BrowserTelemetryCategoriesConfig';

/** One telemetry category: its name, and whether it is captured by default (`x-default-enabled`). */
export interface TelemetryCategorySpec {
  readonly name: string;
  readonly defaultEnabled: boolean;
}

/**
 * The categories in the document's order: none in a document without {@link TELEMETRY_CATEGORIES_SCHEMA}.
 * Each property of it says whether its category is captured by default with `x-default-enabled:
 * true` or `false`: on create, a configuration that leaves the category out takes that (on
 * update, the session's current selection).
 * @throws OpenApiDocumentError for a property without a boolean `x-default-enabled`, pointing at
 *   the extension, or at the property when it has none.
 */
export function telemetryCategories(document: OpenApiDocument): TelemetryCategorySpec[] {
  const schema = document.components?.schemas?.[TELEMETRY_CATEGORIES_SCHEMA] as
    | { properties?: Record<string, Record<string, unknown> | undefined> }
    | undefined;
  return Object.entries(schema?.properties ?? {}).map(([name, property]) => {
    const flag = property?.['x-default-enabled'];
    if (typeof flag !== 'boolean') {
      const at = formatPointer(['components', 'schemas', TELEMETRY_CATEGORIES_SCHEMA, 'properties', name]);
      throw new OpenApiDocumentError(
        `x-default-enabled at ${at} must be true or false: whether the telemetry category ${name} is captured by default`,
        { pointer: flag === undefined ? at : `${at}/x-default-enabled` },
      );
    }
    return { name, defaultEnabled: flag };
  });
}
