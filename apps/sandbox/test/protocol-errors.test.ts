import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../src/index.js';
import { REFS, TOKENS, call, detailMessages, expectError, login, rawRequest, start } from './helpers.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await start();
});
afterAll(() => sandbox.close());

const detailText = (body: { message: string; details?: Array<{ message?: string }> }): string =>
  [body.message, ...(body.details ?? []).map((d) => d.message ?? '')].join(' | ');

const auth = `Authorization: Bearer ${TOKENS.owner}\r\n`;
const profile = `/profiles/${REFS.profiles.defaultProject.id}`;

describe("errors raised by Node's HTTP parser", () => {
  it('answers a header block over the limit with 431 and an Error body', async () => {
    const r = await rawRequest(
      sandbox.url,
      `GET ${profile} HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    const body = expectError(r, 431, 'request_header_fields_too_large');
    expect(body.message).toMatch(/headers/);
    expect(JSON.stringify(r.body)).not.toContain('aaaaaaaa');
  });

  it.each([
    ['a NUL', 'a\u0000b'],
    ['a CR', 'a\rb'],
  ])('answers %s in a header value with 400 naming the rule', async (_name, value) => {
    const r = await rawRequest(sandbox.url, `GET ${profile} HTTP/1.1\r\nHost: a\r\nX-Odd: ${value}\r\n\r\n`);
    expect(detailText(expectError(r, 400, 'bad_request'))).toMatch(/headers: .*(character|line)/);
  });

  it('answers an unknown method with 400 naming the method as the problem', async () => {
    const r = await rawRequest(sandbox.url, `FROB ${profile} HTTP/1.1\r\nHost: a\r\n\r\n`);
    expect(detailText(expectError(r, 400, 'bad_request'))).toMatch(/method: /);
  });

  it('answers Content-Length together with Transfer-Encoding with 400', async () => {
    const r = await rawRequest(
      sandbox.url,
      `PATCH ${profile} HTTP/1.1\r\nHost: a\r\n${auth}Content-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    );
    expect(detailText(expectError(r, 400, 'bad_request'))).toMatch(/Content-Length.*Transfer-Encoding/);
  });

  it('answers a chunk size that is not hexadecimal with 400', async () => {
    const r = await rawRequest(
      sandbox.url,
      `PATCH ${profile} HTTP/1.1\r\nHost: a\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    );
    expect(detailText(expectError(r, 400, 'bad_request'))).toMatch(/body: .*chunk/);
  });

  it('answers an HTTP/1.1 request without Host with 400 naming Host', async () => {
    const r = await rawRequest(sandbox.url, `GET ${profile} HTTP/1.1\r\n${auth}\r\n`);
    expect(detailText(expectError(r, 400, 'bad_request'))).toMatch(/headers\.host: is required/);
  });

  it('still serves a well-formed raw request, and an HTTP/1.0 one without Host', async () => {
    const ok = await rawRequest(sandbox.url, `GET /_sandbox/flows HTTP/1.1\r\nHost: a\r\n\r\n`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toMatch(/^req_/);
    expect((await rawRequest(sandbox.url, 'GET /_sandbox/flows HTTP/1.0\r\n\r\n')).status).toBe(200);
  });
});

describe('ids that do not decode or are very long', () => {
  it('answers a malformed percent-encoding with 400, a request id and no echo of a long input', async () => {
    const r = await call(sandbox, 'PATCH', '/profiles/%E0%A4%A', { body: { name: 'x' } });
    expect(detailMessages(expectError(r, 400, 'bad_request'))).toEqual([
      'path: /profiles/%E0%A4%A is not valid percent-encoding',
    ]);
    expect(r.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);

    const long = `/profiles/%E0%A4%A${'z'.repeat(1000)}`;
    const huge = await call(sandbox, 'PATCH', long, { body: { name: 'x' } });
    expectError(huge, 400, 'bad_request');
    expect(huge.headers.get('x-request-id')).toMatch(/^req_/);
    expect(JSON.stringify(huge.body).length).toBeLessThan(600);
  });

  it('answers ids over 1024 characters with 404, a request id and no echo of the id', async () => {
    for (const length of [1025, 5000]) {
      const r = await login(sandbox, 'a'.repeat(length));
      const body = expectError(r, 404, 'not_found');
      expect(r.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);
      expect(JSON.stringify(body).length).toBeLessThan(600);
      expect(body.message).toContain(String(length));
    }
    // At the limit the id still reaches the operation, which finds nothing.
    expectError(await login(sandbox, 'a'.repeat(1024)), 404, 'not_found');
  });

  it('answers an unknown long path with 404 without echoing all of it', async () => {
    const r = await call(sandbox, 'GET', `/nothing/${'z'.repeat(8000)}`);
    const body = expectError(r, 404, 'not_found');
    expect(body.message.length).toBeLessThan(300);
    expect(r.headers.get('x-request-id')).toMatch(/^req_/);
  });
});
