// Validates data against the schemas of the OpenAPI document itself (not generated code): every
// schema in the document is addressable by its JSON pointer, and its `$ref`s resolve against the
// document. The contract tests check live responses with it; the document's tests check examples.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule.default ?? addFormatsModule;
const DOCUMENT_ID = 'openapi.json';

export function escapePointerToken(token) {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(...tokens) {
  return `#/${tokens.map(escapePointerToken).join('/')}`;
}

export function resolvePointer(document, pointer) {
  return pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((t) => t !== '')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node, key) => (node === undefined ? undefined : node[key]), document);
}

/** Follows `$ref`s (local ones only, which is all this document uses) to the object they name. */
export function deref(document, node) {
  let current = node;
  const seen = new Set();
  while (current && typeof current.$ref === 'string') {
    if (seen.has(current.$ref)) throw new Error(`circular $ref ${current.$ref}`);
    seen.add(current.$ref);
    current = resolvePointer(document, current.$ref);
  }
  return current;
}

/** Splits a `text/event-stream` body into the `data` of its complete events (LF line ends). */
export function eventStreamData(text) {
  return text
    .split(/\r\n\r\n|\n\n|\r\r/)
    .slice(0, -1)
    .map((block) =>
      block
        .split(/\r\n|\n|\r/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n'),
    )
    .filter((data) => data !== '');
}

export function createDocumentValidator(document) {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const compiled = new Map();

  /** Validates `data` against the schema at `pointer`; returns readable problems, [] when valid. */
  function validateAt(pointer, data) {
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
      compiled.set(pointer, validate);
    }
    if (validate(data)) return [];
    return validate.errors.map(
      (e) =>
        `${e.instancePath || '(root)'} ${e.message}${e.params?.additionalProperty ? ` (${e.params.additionalProperty})` : ''}`,
    );
  }

  function findOperation(operationId) {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (operation?.operationId === operationId) return { path, method, operation };
      }
    }
    throw new Error(`no operation ${operationId} in the document`);
  }

  /**
   * Validates a response body against what the document says `operationId` answers with
   * `status` and `contentType`. An undocumented status or media type is itself a problem.
   * For `text/event-stream`, each event's data is checked against `x-sse-event-data`.
   */
  function validateResponse(operationId, status, contentType, body) {
    const { path, method, operation } = findOperation(operationId);
    const responses = operation.responses ?? {};
    const code = String(status);
    const key =
      code in responses
        ? code
        : `${code[0]}XX` in responses
          ? `${code[0]}XX`
          : 'default' in responses
            ? 'default'
            : null;
    if (key === null) return [`status ${status} is not documented for ${operationId}`];
    const response = deref(document, responses[key]);
    const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
    if (!response.content)
      return body === undefined || body === '' ? [] : [`${operationId} ${status} documents no body`];
    if (!(mediaType in response.content)) {
      return [
        `${operationId} ${status}: content type "${mediaType}" is not documented (${Object.keys(response.content).join(', ')})`,
      ];
    }
    const responsesPointer = pointerOf('paths', path, method, 'responses', key);
    const base = responses[key].$ref ?? responsesPointer;
    const schemaPointer = `${base}/content/${escapePointerToken(mediaType)}/schema`;
    const schema = deref(document, response.content[mediaType].schema);
    if (mediaType === 'text/event-stream') {
      const problems = validateAt(schemaPointer, body);
      const eventSchema = schema?.['x-sse-event-data'];
      if (!eventSchema) return problems;
      const eventPointer = `${schemaPointer}/x-sse-event-data`;
      eventStreamData(body).forEach((data, i) => {
        let value;
        try {
          value = JSON.parse(data);
        } catch {
          problems.push(`event ${i}: data is not JSON: ${data.slice(0, 80)}`);
          return;
        }
        for (const p of validateAt(eventPointer, value)) problems.push(`event ${i}: ${p}`);
      });
      return problems;
    }
    return validateAt(schemaPointer, body);
  }

  return { validateAt, validateResponse, findOperation };
}
