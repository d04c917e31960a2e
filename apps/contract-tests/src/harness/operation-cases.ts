// The planned cases of one operation (src/engine/plan.ts) as vitest cases, called by its case file
// in src/generated/ (one per operation, so that --shard spreads them).
import { findOperation } from '@browser-cloud/openapi-document';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { noteCreated, noteDeleted } from '../../scripts/created-resources.mjs';
import { contractSeeds, runsFromEnv } from '../../scripts/seeds.mjs';
import { type PlannedCase, planOperation } from '../engine/plan.js';
import { pathOf, type RequestCase } from '../engine/request-case.js';
import { missingReason } from '../engine/resources.js';
import { callClient } from './clients.js';
import { observedFetch } from './observed-fetch.js';
import { checker, document, documentValidator, target } from './target.js';

function register(planned: PlannedCase) {
  // The mock answers any valid request: its cases need no resources.
  const missing = target.mode === 'mock' ? undefined : missingReason(target.resources, planned.needs);
  return it(
    planned.title,
    async (context) => {
      // A case that cannot run says why in its meta, which the runner reads back: it is skipped
      // when it means nothing on the target, or under --allow-skips; else it fails.
      const skip = (reason: string, skipped = target.allowSkips): never => {
        (context.task.meta as { skipReason?: string }).skipReason = reason;
        if (skipped) context.skip(reason);
        throw new Error(`not run: ${reason} (every case must run; --allow-skips lets it be skipped)`);
      };
      if (planned.notApplicable) skip(planned.notApplicable, true);
      if (missing) skip(missing);
      await planned.run(skip);
    },
    planned.timeout,
  );
}

/** The runner's ledger of what the cases create, so that what a crashed run left is deleted (scripts/created-resources.mjs). */
const ledgerFile = process.env.CONTRACT_CREATED_FILE;
const removalOf = (c: RequestCase) => `${c.method} ${pathOf(c)}`;
const ledger = ledgerFile
  ? {
      created: (c: RequestCase) => noteCreated(ledgerFile, target.directUrl, removalOf(c)),
      deleted: (c: RequestCase) => noteDeleted(ledgerFile, target.directUrl, removalOf(c)),
    }
  : undefined;

export function describeOperation(operationId: string) {
  const plan = planOperation(findOperation(document, operationId), {
    document,
    checker,
    validator: documentValidator,
    mode: target.mode,
    resources: target.resources,
    seeds: contractSeeds(),
    runs: runsFromEnv(),
    target: { baseUrl: target.directUrl, token: target.token, fetch: observedFetch },
    callClient,
    ledger,
  });
  // In the plan's order even when vitest shuffles (--sequence.shuffle): later cases build on earlier ones.
  describe(operationId, { shuffle: false }, () => {
    beforeAll(plan.before);
    afterAll(plan.after);
    for (const planned of plan.cases) register(planned);
  });
}
