// The suite's setup file, run before each case file: every response any case receives must agree
// with the document, whatever the case asserts. The responses are seen by observed-fetch.ts, a
// module of its own: files share one worker's modules (vitest.config.ts, `isolate: false`), while
// a setup file is evaluated again for each file, so it holds nothing but this hook.
import { afterEach, expect } from 'vitest';
import { takeViolations } from './observed-fetch.js';

afterEach(() => {
  expect(takeViolations(), 'responses that disagree with openapi/openapi.yaml').toEqual([]);
});
