import { afterEach, expect } from 'vitest';
import { takeViolations } from './observed-fetch.js';

// Every response any case receives must agree with the document, whatever the case asserts.
afterEach(() => {
  expect(takeViolations(), 'responses that disagree with openapi/openapi.yaml').toEqual([]);
});
