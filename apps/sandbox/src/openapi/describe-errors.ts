import type { ErrorObject } from 'ajv/dist/2020.js';

/**
 * Ajv's errors as one line each, `field: message` (`created_at: must match format "date-time"`,
 * `code: is required`, `extra: is not allowed`), for the sandbox's own diagnostics. The `if` of an `if/then` only says the `then` failed, so it
 * is left out; a failed `not` is explained by the description beside it (verbose errors) when
 * the document gives one. An error without a message still names its rule and parameters.
 *
 * @param root how to name the value itself, and the prefix of its fields.
 */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined, root = '(root)'): string[] {
  const lines = (errors ?? [])
    .filter((e) => e.keyword !== 'if')
    .map((e) => {
      // Name the property itself rather than the object that lacks or has it.
      if (e.keyword === 'required') return `${fieldName(`${e.instancePath}/${String(e.params['missingProperty'])}`, root)}: is required`;
      if (e.keyword === 'additionalProperties') {
        return `${fieldName(`${e.instancePath}/${String(e.params['additionalProperty'])}`, root)}: is not allowed`;
      }
      return `${fieldName(e.instancePath, root)}: ${reason(e)}`;
    });
  return [...new Set(lines)];
}

function reason(e: ErrorObject): string {
  if (e.keyword === 'not') {
    const description = (e.parentSchema as { description?: unknown } | undefined)?.description;
    if (typeof description === 'string') return description;
  }
  return e.message ?? `violates ${e.keyword} ${JSON.stringify(e.params)}`;
}

/** `/browser/console/enabled` under `browserTelemetry` → `browserTelemetry.browser.console.enabled`. */
function fieldName(instancePath: string, root: string): string {
  if (instancePath === '') return root;
  const field = instancePath
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  return root === '(root)' ? field : `${root}.${field}`;
}
