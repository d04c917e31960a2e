import { validateLoginRequest, validateRenameProfileRequest } from '@browser-cloud/api-types/validators';
import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.js';
import { check } from './validation.js';

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
