import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  ConflictError,
  InternalServerError,
  ValidationError,
} from '@browser-cloud/client';
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from './tool-definition.js';
import { errorResult, toolResult } from './server.js';

/** Tools of the test's own: what is reported depends only on what a definition says. */
const withHint = { name: 'zz_not_in_document', conflictHint: 'The zz is taken: choose another.' } as ToolDefinition;
const plain = { name: 'zz_other', conflictHint: '' } as ToolDefinition;

const headers = new Headers({ 'x-request-id': 'req_1' });
const text = (result: ReturnType<typeof errorResult>) => (result.content[0] as { text: string }).text;

describe('toolResult', () => {
  it('gives the object as structured content and as its JSON text', () => {
    expect(toolResult({ a: 1 })).toEqual({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } });
  });
});

describe('errorResult', () => {
  it('a 409 says what the document says of it, from the tool’s hint', () => {
    const error = new ConflictError({
      status: 409,
      headers,
      body: { code: 'conflict', message: 'a login flow is already in progress' },
    });
    const result = errorResult(error, withHint);
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      `The API answered 409 conflict: a login flow is already in progress\n${withHint.conflictHint}\nRequest ID: req_1`,
    );
    // Without a hint, the answer alone.
    expect(text(errorResult(error, plain))).toBe(
      'The API answered 409 conflict: a login flow is already in progress\nRequest ID: req_1',
    );
  });

  it('other API errors carry status, code and message', () => {
    const error = new InternalServerError({
      status: 503,
      headers: new Headers(),
      body: { code: 'x', message: 'down' },
    });
    expect(text(errorResult(error, plain))).toBe('The API answered 503 x: down');
    expect(text(errorResult(new APIError({ status: 418, headers: new Headers() }), plain))).toBe(
      'The API answered 418 status code (no body)',
    );
  });

  it('bad input says nothing was sent', () => {
    const error = new ValidationError([{ field: 'body.name', rule: 'required', message: 'body.name: is required' }]);
    expect(text(errorResult(error, plain))).toBe('Invalid arguments, nothing was sent: body.name: is required');
  });

  it('connection failures keep the client’s message', () => {
    expect(text(errorResult(new APIConnectionError('Connection error.'), plain))).toBe(
      'APIConnectionError: Connection error.',
    );
  });

  it('an error that is not the client’s is reported by class only, so a token in its message stays out', () => {
    const result = errorResult(new TypeError('Bearer sk_live_secret leaked'), plain);
    expect(text(result)).toBe('Unexpected failure of the MCP server (TypeError).');
    expect(JSON.stringify(result)).not.toContain('sk_live_secret');
  });
});

describe('errorResult of a 401', () => {
  it('says which variable to check', () => {
    const error = new AuthenticationError({
      status: 401,
      headers,
      body: { code: 'unauthorized', message: 'bad token' },
    });
    expect(text(errorResult(error, plain))).toBe(
      [
        'The API answered 401 unauthorized: bad token',
        "The API key was refused: check BROWSER_CLOUD_API_KEY in the MCP server's configuration (its env).",
        'Request ID: req_1',
      ].join('\n'),
    );
  });
});
