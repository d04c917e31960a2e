// The planned cases of every operation of a document, run in-process as the harness runs them
// (src/harness/operation-cases.ts): before, each case the target can run, after. For the tests of
// a document the repository does not have case files for.
import { type OpenApiDocument, operations } from '@browser-cloud/openapi-document';
import { createRequestChecker } from '@browser-cloud/request-checker';
import { createDocumentValidator } from '../judge.js';
import { type PlanSettings, planOperation } from '../plan.js';
import { missingReason } from '../resources.js';

/** What failed, each as `<operationId>: <case>: <message>`; a case whose variable is not set fails off the mock. */
export async function runEveryPlan(
  document: OpenApiDocument,
  settings: Omit<PlanSettings, 'document' | 'checker' | 'validator'>,
): Promise<string[]> {
  const checker = createRequestChecker(document);
  const validator = createDocumentValidator(document);
  const failures: string[] = [];
  const attempt = async (where: string, run: () => Promise<void>) =>
    run().catch((error: Error) => void failures.push(`${where}: ${error.message}`));
  const skip = (reason: string): never => {
    throw new Error(`not run: ${reason}`);
  };
  for (const operation of operations(document)) {
    const { operationId } = operation;
    const plan = planOperation(operation, { ...settings, document, checker, validator });
    await attempt(`${operationId}: before`, plan.before);
    for (const c of plan.cases.filter((c) => !c.notApplicable)) {
      const missing = settings.mode === 'mock' ? undefined : missingReason(settings.resources, c.needs);
      await attempt(`${operationId}: ${c.title}`, () => (missing ? skip(missing) : c.run(skip)));
    }
    await attempt(`${operationId}: after`, plan.after);
  }
  return failures;
}
