import { describe, expect, it } from 'vitest';
import {
  validateBrowserTelemetryRequestConfig,
  validateError,
  validateLogEvent,
  validateLogStreamQuery,
  validateLoginAuthConnectionPath,
  validateLoginRequest,
  validateLoginResponse,
  validateProfile,
  validateReceivedLogEvent,
  validateReceivedLoginResponse,
  validateRenameProfileRequest,
} from './generated/validators/index.js';
import type { Validator } from './validator.js';
import { deref, getAt, loadOpenApiDocument, operations } from '@browser-cloud/openapi-document';

const document = loadOpenApiDocument();
/** The login flow types as the document lists them: a fresh login first, then the re-authentication. */
const flowTypes = getAt(document, '#/components/schemas/LoginResponse/properties/flow_type/enum') as string[];
/** The document's example login answers merged into one: every optional property they show. */
const loginWithOptionals = Object.assign(
  {},
  ...[...operations(document)].flatMap(({ responses }) =>
    Object.values(responses).flatMap(({ content }) =>
      Object.values(content)
        .filter(
          ({ media }) => (media.schema as { $ref?: string } | undefined)?.$ref === '#/components/schemas/LoginResponse',
        )
        .flatMap(({ media }) =>
          Object.values(media.examples ?? {}).map(
            (e) => deref<{ value: object }>(document, e as { value: object }).value,
          ),
        ),
    ),
  ),
);

/**
 * The seed's rules as the generated validators enforce them. The drift check keeps these
 * validators equal to what the document generates, so this table tests the document too.
 */
const table: [string, Validator<unknown>, unknown, boolean][] = [
  // Login request: everything optional, unknown properties rejected.
  ['empty login body', validateLoginRequest, {}, true],
  ['unknown login property', validateLoginRequest, { zz_not_in_document: 'p' }, false],
  ['record_session boolean', validateLoginRequest, { record_session: true }, true],
  ['record_session not boolean', validateLoginRequest, { record_session: 'yes' }, false],
  ['browser_telemetry null', validateLoginRequest, { browser_telemetry: null }, true],
  // ProxyRef: exactly one of id or name.
  ['proxy by id', validateLoginRequest, { proxy: { id: 'prx_1' } }, true],
  ['proxy by name', validateLoginRequest, { proxy: { name: 'eu' } }, true],
  ['proxy with id and name', validateLoginRequest, { proxy: { id: 'prx_1', name: 'eu' } }, false],
  ['proxy with neither', validateLoginRequest, { proxy: {} }, false],
  ['proxy with unknown property', validateLoginRequest, { proxy: { id: 'prx_1', zz_not_in_document: 1 } }, false],
  ['proxy with empty id', validateLoginRequest, { proxy: { id: '' } }, false],
  // Telemetry: enabled=false cannot be combined with browser settings; exactly nine categories.
  ['telemetry enabled only', validateBrowserTelemetryRequestConfig, { enabled: true }, true],
  ['telemetry disabled only', validateBrowserTelemetryRequestConfig, { enabled: false }, true],
  [
    'telemetry disabled with categories',
    validateBrowserTelemetryRequestConfig,
    { enabled: false, browser: { console: { enabled: true } } },
    false,
  ],
  [
    'telemetry disabled with empty browser',
    validateBrowserTelemetryRequestConfig,
    { enabled: false, browser: {} },
    false,
  ],
  [
    'telemetry enabled with categories',
    validateBrowserTelemetryRequestConfig,
    { enabled: true, browser: { console: { enabled: true } } },
    true,
  ],
  [
    'telemetry categories only',
    validateBrowserTelemetryRequestConfig,
    { browser: { control: { enabled: false } } },
    true,
  ],
  [
    'all nine categories',
    validateBrowserTelemetryRequestConfig,
    {
      browser: Object.fromEntries(
        ['control', 'connection', 'system', 'captcha', 'console', 'page', 'interaction', 'network', 'screenshot'].map(
          (c) => [c, { enabled: true }],
        ),
      ),
    },
    true,
  ],
  [
    'category outside the nine',
    validateBrowserTelemetryRequestConfig,
    { browser: { zz_not_in_document: { enabled: true } } },
    false,
  ],
  ['category without enabled', validateBrowserTelemetryRequestConfig, { browser: { console: {} } }, true],
  [
    'login with a category without enabled',
    validateLoginRequest,
    { browser_telemetry: { browser: { console: {} } } },
    true,
  ],
  [
    'category with extra field',
    validateBrowserTelemetryRequestConfig,
    { browser: { console: { enabled: true, zz_not_in_document: 'warn' } } },
    false,
  ],
  [
    'telemetry unknown property',
    validateBrowserTelemetryRequestConfig,
    { enabled: true, zz_not_in_document: 0.5 },
    false,
  ],
  [
    'nested telemetry error reaches the login body',
    validateLoginRequest,
    { browser_telemetry: { enabled: false, browser: { page: { enabled: true } } } },
    false,
  ],
  // Rename: name required, 1 to 255 characters.
  ['name of 1', validateRenameProfileRequest, { name: 'a' }, true],
  ['name of 255', validateRenameProfileRequest, { name: 'a'.repeat(255) }, true],
  ['name of 255 astral characters', validateRenameProfileRequest, { name: '😀'.repeat(255) }, true],
  ['empty name', validateRenameProfileRequest, { name: '' }, false],
  ['name of 256', validateRenameProfileRequest, { name: 'a'.repeat(256) }, false],
  ['missing name', validateRenameProfileRequest, {}, false],
  ['rename unknown property', validateRenameProfileRequest, { name: 'a', zz_not_in_document: 'b' }, false],
  // Log stream query: source enum and its matching parameter.
  ['source path with path', validateLogStreamQuery, { source: 'path', path: '/var/log/x.log', follow: true }, true],
  ['source path without path', validateLogStreamQuery, { source: 'path' }, false],
  [
    'source supervisor with process',
    validateLogStreamQuery,
    { source: 'supervisor', supervisor_process: 'chromium' },
    true,
  ],
  ['source supervisor without process', validateLogStreamQuery, { source: 'supervisor', path: '/x' }, false],
  ['unknown source', validateLogStreamQuery, { source: 'zz_not_in_document', path: '/x' }, false],
  ['missing source', validateLogStreamQuery, { path: '/x' }, false],
  // Path parameters: a non-empty id.
  ['login path id', validateLoginAuthConnectionPath, { id: 'ac_1' }, true],
  ['empty login path id', validateLoginAuthConnectionPath, { id: '' }, false],
  // Login response: four required fields, enum, formats, closed.
  [
    'response of the first flow type',
    validateLoginResponse,
    { id: 'ac', flow_type: flowTypes[0], hosted_url: 'https://a.example/x', flow_expires_at: '2026-11-22T20:00:00Z' },
    true,
  ],
  [
    'response of each other flow type, with optionals',
    validateLoginResponse,
    { ...loginWithOptionals, flow_type: flowTypes.at(-1) },
    true,
  ],
  [
    'unknown flow_type',
    validateLoginResponse,
    {
      id: 'ac',
      flow_type: 'ZZ_NOT_IN_DOCUMENT',
      hosted_url: 'https://a.example/x',
      flow_expires_at: '2026-11-22T20:00:00Z',
    },
    false,
  ],
  [
    'missing flow_expires_at',
    validateLoginResponse,
    { id: 'ac', flow_type: flowTypes[0], hosted_url: 'https://a.example/x' },
    false,
  ],
  // The strict validators assert the formats the document uses, as the server's checker does;
  // the tolerant readers (validateReceived…) do not.
  [
    'hosted_url not a URI',
    validateLoginResponse,
    { id: 'ac', flow_type: flowTypes[0], hosted_url: 'nope', flow_expires_at: '2026-11-22T20:00:00Z' },
    false,
  ],
  [
    'flow_expires_at not a date-time',
    validateLoginResponse,
    { id: 'ac', flow_type: flowTypes[0], hosted_url: 'https://a.example/x', flow_expires_at: 'tomorrow' },
    false,
  ],
  [
    'flow_expires_at a day that does not exist',
    validateLoginResponse,
    { id: 'ac', flow_type: flowTypes[0], hosted_url: 'https://a.example/x', flow_expires_at: '2026-02-30T00:00:00Z' },
    false,
  ],
  [
    'flow_expires_at not a string',
    validateLoginResponse,
    { id: 'ac', flow_type: flowTypes[0], hosted_url: 'https://a.example/x', flow_expires_at: 1 },
    false,
  ],
  [
    'extra response property',
    validateLoginResponse,
    {
      id: 'ac',
      flow_type: flowTypes[0],
      hosted_url: 'https://a.example/x',
      flow_expires_at: '2026-11-22T20:00:00Z',
      zz_not_in_document: 'x',
    },
    false,
  ],
  // Profile: id and created_at always present; name may be null.
  ['minimal profile', validateProfile, { id: 'p', created_at: '2026-01-01T00:00:00Z' }, true],
  ['profile with null name', validateProfile, { id: 'p', created_at: '2026-01-01T00:00:00Z', name: null }, true],
  ['profile without created_at', validateProfile, { id: 'p' }, false],
  // Log event and Error.
  ['log event', validateLogEvent, { event: 'log', timestamp: '2026-01-01T00:00:00.5Z', message: 'm' }, true],
  [
    'heartbeat is not a log event',
    validateLogEvent,
    { event: 'sse_heartbeat', timestamp: '2026-01-01T00:00:00Z' },
    false,
  ],
  [
    'log event with a timestamp that is not a date-time',
    validateLogEvent,
    { event: 'log', timestamp: 'yesterday', message: 'm' },
    false,
  ],
  [
    'error body',
    validateError,
    {
      code: 'bad_request',
      message: 'm',
      details: [{ code: 'invalid_input', message: 'x' }],
      inner_error: { code: 'c' },
    },
    true,
  ],
  ['error without message', validateError, { code: 'bad_request' }, false],
  [
    'error detail with extra field',
    validateError,
    { code: 'c', message: 'm', details: [{ zz_not_in_document: 'name' }] },
    false,
  ],
];

describe('generated validators', () => {
  it.each(table)('%s', (_name, validate, value, valid) => {
    expect(validate(value)).toBe(valid);
    if (!valid) expect(validate.errors?.length).toBeGreaterThan(0);
  });

  it('names the failing field and keyword', () => {
    expect(validateRenameProfileRequest({ name: 'a'.repeat(256) })).toBe(false);
    expect(validateRenameProfileRequest.errors?.[0]).toMatchObject({ instancePath: '/name', keyword: 'maxLength' });
  });
});

// The strict validators assert formats with ajv-formats' code, as the server's checker does (the
// two are compared on drawn values in apps/contract-tests); the tolerant readers of answers do not.
describe('format: asserted by the strict validators, an annotation for the tolerant readers', () => {
  const badLogin = { id: 'ac', flow_type: flowTypes[0], hosted_url: 'nope', flow_expires_at: 'tomorrow' };
  const badEvent = { event: 'log', timestamp: 'yesterday', message: 'm' };

  it('the strict validators refuse a string that breaks the format, naming it', () => {
    expect(validateLoginResponse(badLogin)).toBe(false);
    expect(validateLoginResponse.errors?.[0]).toMatchObject({ keyword: 'format', params: { format: 'uri' } });
    expect(validateLogEvent(badEvent)).toBe(false);
    expect(validateLogEvent.errors?.[0]).toMatchObject({ keyword: 'format', params: { format: 'date-time' } });
  });

  it('the tolerant readers accept a string of any spelling', () => {
    expect(validateReceivedLoginResponse(badLogin)).toBe(true);
    expect(validateReceivedLogEvent(badEvent)).toBe(true);
  });
});
