import { validateLoginRequest, validateRenameProfileRequest } from '@browser-cloud/api-types/validators';
import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.js';
import { check, wellFormed } from './validation.js';

// The wording of each rule is @browser-cloud/api-types' toIssues, tested there.
describe('check', () => {
  it('passes a valid value through', () => {
    expect(() => check(validateLoginRequest, { proxy: { id: 'prx_1' }, record_session: true }, 'body')).not.toThrow();
  });

  it('throws a ValidationError carrying every issue, named under the root', () => {
    let thrown: unknown;
    try {
      check(validateRenameProfileRequest, { name: '' }, 'body');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect(thrown).toMatchObject({
      field: 'body.name',
      rule: 'minLength',
      message: 'body.name: must not be empty',
      issues: [{ field: 'body.name', rule: 'minLength', message: 'body.name: must not be empty' }],
    });
  });
});

describe('wellFormed', () => {
  const refusal = (value: unknown, field: string) => {
    try {
      wellFormed(value, field);
    } catch (error) {
      return error;
    }
    return undefined;
  };

  it('passes well-formed strings (surrogate pairs included) and values that are not strings', () => {
    for (const value of ['', 'plain', '😀 ok', '\ud83d\ude00', 5, true, null, undefined, { a: ['😀', { b: 1 }] }]) {
      expect(refusal(value, 'body')).toBeUndefined();
    }
  });

  it('names the first lone surrogate, high or low, and where it is: an array item, a property, a property name', () => {
    expect(refusal('a\ud800', 'path.id')).toMatchObject({
      field: 'path.id',
      rule: 'wellFormed',
      message: 'path.id: must be well-formed Unicode (it holds a lone surrogate, U+D800)',
    });
    expect(refusal('\udfff\ud800', 'q')).toMatchObject({
      message: 'q: must be well-formed Unicode (it holds a lone surrogate, U+DFFF)',
    });
    expect(refusal({ a: [{ b: 'ok' }, { b: 'x\udc00' }] }, 'body')).toMatchObject({ field: 'body.a[1].b' });
    expect(refusal({ ['k\ud800']: 1 }, 'body')).toMatchObject({ field: 'body (a property name)', rule: 'wellFormed' });
    expect(refusal({ a: 'x\udbff' }, 'body')).toBeInstanceOf(ValidationError);
  });
});
