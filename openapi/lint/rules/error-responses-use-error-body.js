const ERROR_SCHEMA_REF = '#/components/schemas/Error';

/**
 * Every 4xx and 5xx response carries the shared Error body as `application/json`, so that
 * clients can decode every failure with one type.
 */
export default function errorResponsesUseErrorBody() {
  return {
    Response: {
      enter(response, ctx) {
        const status = String(ctx.key);
        if (!/^[45](\d\d|XX)$/.test(status)) return;
        const json = response.content?.['application/json'];
        if (!json) {
          ctx.report({
            message: `Response ${status} must have an \`application/json\` body with the Error schema.`,
            location: ctx.location,
          });
          return;
        }
        if (json.schema?.$ref !== ERROR_SCHEMA_REF) {
          ctx.report({
            message: `Response ${status} must use \`$ref: '${ERROR_SCHEMA_REF}'\` as its schema.`,
            location: ctx.location.child(['content', 'application/json', 'schema']),
          });
        }
      },
    },
  };
}
