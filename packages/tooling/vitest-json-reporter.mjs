// vitest's JSON reporter, with what its report leaves out put where the failure summary of
// `npm test` (test-reports.mjs) reads it:
// - a failure's first line is the error's own. vitest writes the error's stack there, and the stack
//   of a timeout is that of a placeholder made where the test was declared: it reads
//   `Error: STACK_TRACE_ERROR`, not "Test timed out in 20000ms".
// - a file's message names a hook that failed in one of its suites (a `beforeAll` in a `describe`):
//   vitest keeps that error on the suite, and the report's file entry had an empty message.
// The tasks are changed only while vitest's reporter reads them (the report is built before its
// first `await`), so that no other reporter sees a change.
import { JsonReporter } from 'vitest/node';

const PLACEHOLDER = 'Error: STACK_TRACE_ERROR';

/** The suites and tests under a task, itself included. */
const tasksOf = (task) => [task, ...(Array.isArray(task.tasks) ? task.tasks.flatMap(tasksOf) : [])];

/** `error` with its stack's placeholder line replaced by its message, or undefined when it has none. */
function withMessageFirst(error) {
  const [first, ...frames] = typeof error?.stack === 'string' ? error.stack.split('\n') : [];
  if (first !== PLACEHOLDER) return undefined;
  return { ...error, stack: [`${error.name ?? 'Error'}: ${error.message ?? ''}`, ...frames].join('\n') };
}

export default class JsonReporterWithMessages extends JsonReporter {
  onTestRunEnd(testModules, ...rest) {
    const restores = [];
    const replace = (result, errors) => {
      const before = result.errors;
      result.errors = errors;
      restores.push(() => {
        result.errors = before;
      });
    };
    for (const module of testModules) {
      const file = module.task;
      const tasks = tasksOf(file);
      for (const task of tasks) {
        const errors = task.result?.errors ?? [];
        if (errors.some((error) => withMessageFirst(error))) {
          replace(
            task.result,
            errors.map((error) => withMessageFirst(error) ?? error),
          );
        }
      }
      const suiteErrors = tasks
        .filter((task) => task !== file && task.type === 'suite')
        .flatMap((suite) =>
          (suite.result?.errors ?? []).map((error) => ({
            ...error,
            message: `${error.name ?? 'Error'}: ${error.message || '(no message)'} (in the suite "${suite.name}")`,
          })),
        );
      if (file.result && (file.result.errors ?? []).length === 0 && suiteErrors.length > 0) {
        replace(file.result, suiteErrors);
      }
    }
    try {
      return super.onTestRunEnd(testModules, ...rest);
    } finally {
      for (const restore of restores) restore();
    }
  }
}
