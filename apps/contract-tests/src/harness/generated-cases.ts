// The generated cases of one operation as vitest cases, one file per operation (src/generated/)
// so that vitest's --shard spreads them over machines.
import { afterAll, describe, it } from 'vitest';
import { operationById } from '../engine/operations.js';
import { runGeneratedCases } from '../engine/run-cases.js';
import { deref, loadOpenApiDocument } from '@browser-cloud/openapi-document';
import { createDocumentValidator } from './document-validator.js';
import { restoreProfileName } from './clients.js';
import { observedFetch } from './observed-fetch.js';
import { knownValues, missingReason, type ResourceName } from './resources.js';
import { contractSeeds } from './seeds.js';
import { target } from './target.js';
import { skipTitle } from '../../scripts/skips.mjs';

const document = loadOpenApiDocument();
const validator = createDocumentValidator(document);
const derefInDocument = (node: unknown) => deref(document, node) as Record<string, unknown>;

/** What to put back after the cases of an operation that changes the target. */
const RESTORE: Record<string, () => Promise<void>> = { renameProfile: restoreProfileName };

/** The resource an operation's path parameters address: invalid cases need one that exists. */
const PATH_RESOURCE: Record<string, ResourceName> = {
  loginAuthConnection: 'connectionId',
  renameProfile: 'profileId',
  streamBrowserLogs: 'browserId',
};

function settings() {
  const runs = Number(process.env.CONTRACT_RUNS ?? 20);
  return { seeds: contractSeeds(), runs };
}

/** `suiteTitle`: the suite's title, `<operationId> generated cases` unless nested in one named for the operation. */
export function describeGeneratedCases(operationId: string, suiteTitle = `${operationId} generated cases`) {
  const operation = operationById(document, operationId);
  const { seeds, runs } = settings();
  const known = knownValues(target.resources)[operationId];
  const run = async (kind: 'valid' | 'invalid', seed: number) => {
    const result = await runGeneratedCases({
      operation,
      kind,
      validator,
      deref: derefInDocument,
      target: { baseUrl: target.directUrl, token: target.token, fetch: observedFetch },
      known,
      seed,
      runs,
    });
    if (!result.ok) throw new Error(result.report);
  };

  describe(suiteTitle, () => {
    const restore = RESTORE[operationId];
    if (restore) afterAll(restore);

    const resource = PATH_RESOURCE[operationId];
    const missing = resource ? missingReason(target.resources, [resource]) : undefined;
    for (const seed of seeds) {
      it(
        `valid requests get a documented answer, never a 5xx (${runs} cases, seed ${seed})`,
        () => run('valid', seed),
        120_000,
      );

      const title = `invalid requests, one broken rule each, get 400 (401 without a token) and an Error body (${runs} cases, seed ${seed})`;
      // On the mock, apps/mock's validating front refuses what Prism alone would accept.
      if (missing) it.skip(skipTitle(title, missing), () => {});
      else it(title, () => run('invalid', seed), 120_000);
    }
  });
}
