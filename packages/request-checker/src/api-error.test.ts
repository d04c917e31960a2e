import { describe, expect, it } from 'vitest';
import {
  ApiError,
  badRequest,
  conflict,
  errorBody,
  forbidden,
  newRequestId,
  notFound,
  projectsDisabled,
  unauthorized,
} from './api-error.js';

describe('errorBody', () => {
  it('has details only when there are some', () => {
    expect(errorBody('c', 'm')).toStrictEqual({ code: 'c', message: 'm' });
    expect(errorBody('c', 'm', [])).toStrictEqual({ code: 'c', message: 'm' });
    const details = [{ code: 'invalid_input', message: 'x: y' }];
    expect(errorBody('c', 'm', details)).toStrictEqual({ code: 'c', message: 'm', details });
  });
});

describe('ApiError', () => {
  it('carries the status, body and headers of a refusal, and its message', () => {
    const body = { code: 'teapot', message: 'short and stout', details: [{ code: 'd', message: 'e' }] };
    const error = new ApiError({ status: 418, body, headers: { 'x-a': 'b' } });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ApiError');
    expect(error.message).toBe('short and stout');
    expect(error.status).toBe(418);
    expect(error.headers).toEqual({ 'x-a': 'b' });
    expect(error.body).toStrictEqual(body);
    expect(new ApiError({ status: 400, body: { code: 'c', message: 'm' } }).headers).toEqual({});
  });
});

describe('newRequestId', () => {
  it('is req_ and 16 hex digits, new each time', () => {
    const ids = new Set(Array.from({ length: 20 }, newRequestId));
    expect(ids.size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{16}$/);
  });
});

describe('the answers', () => {
  const answer = ({ status, headers, body }: ApiError) => ({ status, headers, body });

  it('400 bad_request has one invalid_input detail per field', () => {
    expect(
      answer(
        badRequest('bad', [
          ['a.b', 'is wrong'],
          ['c', 'is missing'],
        ]),
      ),
    ).toStrictEqual({
      status: 400,
      headers: {},
      body: {
        code: 'bad_request',
        message: 'bad',
        details: [
          { code: 'invalid_input', message: 'a.b: is wrong' },
          { code: 'invalid_input', message: 'c: is missing' },
        ],
      },
    });
    expect(answer(badRequest('bad')).body).toStrictEqual({ code: 'bad_request', message: 'bad' });
  });

  it('401, 403, 404 and 404 projects_disabled say what went wrong', () => {
    expect(answer(unauthorized())).toStrictEqual({
      status: 401,
      headers: {},
      body: { code: 'unauthorized', message: 'missing or invalid authorization token' },
    });
    expect(answer(forbidden())).toStrictEqual({
      status: 403,
      headers: {},
      body: { code: 'forbidden', message: 'this API key lacks permission for this operation' },
    });
    expect(answer(notFound('gone'))).toStrictEqual({
      status: 404,
      headers: {},
      body: { code: 'not_found', message: 'gone' },
    });
    expect(answer(projectsDisabled())).toStrictEqual({
      status: 404,
      headers: {},
      body: { code: 'projects_disabled', message: 'projects are disabled for this organization' },
    });
  });

  it('409 conflict tells clients not to retry', () => {
    expect(answer(conflict('taken'))).toStrictEqual({
      status: 409,
      headers: { 'x-should-retry': 'false' },
      body: { code: 'conflict', message: 'taken' },
    });
  });
});
