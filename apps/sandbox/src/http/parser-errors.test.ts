import { describe, expect, it } from 'vitest';
import { parserErrorAnswer, type ParserError } from './parser-errors.js';

const limits = { headersTimeoutMs: 100, requestTimeoutMs: 200 };
const answer = (code: string, reason?: string) =>
  parserErrorAnswer(
    Object.assign(new Error('x'), { code, ...(reason === undefined ? {} : { reason }) }) as ParserError,
    limits,
  );
const detail = (code: string, reason?: string) => answer(code, reason).body.details?.[0]?.message;

describe('parserErrorAnswer', () => {
  it('answers timeouts with 408 naming both limits, and header overflow with 431', () => {
    expect(answer('ERR_HTTP_REQUEST_TIMEOUT')).toEqual({
      status: 408,
      body: {
        code: 'request_timeout',
        message: 'the request did not arrive in time: headers within 100 ms, the whole request within 200 ms',
      },
    });
    expect(answer('HPE_HEADER_OVERFLOW').status).toBe(431);
    expect(answer('HPE_CHUNK_EXTENSIONS_OVERFLOW')).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
  });

  it('names the field and the rule of every malformed request', () => {
    expect(detail('HPE_INVALID_HEADER_TOKEN')).toMatch(/^headers: .*NUL/);
    expect(detail('HPE_LF_EXPECTED')).toMatch(/^headers: /);
    expect(detail('HPE_CR_EXPECTED')).toMatch(/^headers: /);
    expect(detail('HPE_INVALID_METHOD')).toBe('method: not an HTTP method');
    expect(detail('HPE_UNEXPECTED_CONTENT_LENGTH')).toBe(
      'headers: Content-Length and Transfer-Encoding together are not allowed',
    );
    expect(detail('HPE_INVALID_TRANSFER_ENCODING', "Transfer-Encoding can't be present with Content-Length")).toBe(
      'headers: Content-Length and Transfer-Encoding together are not allowed',
    );
    expect(detail('HPE_INVALID_TRANSFER_ENCODING', 'Request has invalid `Transfer-Encoding`')).toBe(
      'headers.transfer-encoding: must end with chunked',
    );
    expect(detail('HPE_INVALID_CONTENT_LENGTH')).toBe('headers.content-length: must be one decimal number');
    expect(detail('HPE_INVALID_CHUNK_SIZE')).toBe('body: a chunk size is not a hexadecimal number');
    expect(detail('HPE_INVALID_URL')).toMatch(/^path: /);
    expect(detail('HPE_INVALID_VERSION')).toBe('version: must be HTTP/1.0 or HTTP/1.1');
    for (const code of ['HPE_INVALID_METHOD', 'HPE_INVALID_URL']) {
      expect(answer(code)).toMatchObject({ status: 400, body: { code: 'bad_request' } });
    }
  });

  it('falls back to a bounded quote of the parser reason for any other error', () => {
    expect(detail('HPE_PAUSED_UPGRADE', 'Pause on CONNECT/Upgrade')).toBe('request: Pause on CONNECT/Upgrade');
    expect(detail('HPE_SOMETHING_NEW')).toBe('request: HPE_SOMETHING_NEW');
    expect(detail('HPE_X', 'r'.repeat(500))).toHaveLength('request: '.length + 100);
  });
});
