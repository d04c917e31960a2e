// An operation added to the document gets its cases with no code change: the repository's
// document plus a read and a delete of a profile (as the service's official SDK has them), and
// a create besides, planned here as the suite plans them.
import { type OpenApiDocument, operations } from '@browser-cloud/openapi-document';
import { createRequestChecker } from '@browser-cloud/request-checker';
import { startHostileServer } from '@browser-cloud/test-servers';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateArtifacts } from '../../scripts/case-files.mjs';
import { missingCoverage } from '../../scripts/coverage.mjs';
import { createDocumentValidator } from './judge.js';
import { planOperation, type PlanSettings } from './plan.js';
import { missingReason, type Resources } from './resources.js';
import { documentWithProfileOperations } from './test-support/profile-document.js';

function settings(document: OpenApiDocument, mode: PlanSettings['mode'], resources: Resources): PlanSettings {
  return {
    document,
    checker: createRequestChecker(document),
    validator: createDocumentValidator(document),
    mode,
    resources,
    seeds: [7],
    runs: 3,
    target: { baseUrl: 'http://127.0.0.1:9', token: 'sk_plan' },
  };
}

const plans = (document: OpenApiDocument, mode: PlanSettings['mode'], resources: Resources) =>
  [...operations(document)].map((operation) => ({
    operation,
    plan: planOperation(operation, settings(document, mode, resources)),
  }));

describe('the planned cases of an operation added to the document', () => {
  const document = documentWithProfileOperations();

  it('include generated valid and invalid cases, the routed case and one case per documented status', () => {
    for (const { operation, plan } of plans(document, 'mock', {})) {
      const titles = plan.cases.map((c) => c.title);
      expect(titles, operation.operationId).toContainEqual(
        expect.stringMatching(/^valid requests get a documented answer/),
      );
      expect(titles, operation.operationId).toContainEqual(
        expect.stringMatching(/^invalid requests, one broken rule each/),
      );
      expect(titles, operation.operationId).toContainEqual(
        expect.stringContaining(`the server routes ${operation.method.toUpperCase()} ${operation.path}`),
      );
      const statuses = plan.cases.flatMap((c) => (c.status === undefined ? [] : [String(c.status)]));
      expect(statuses, operation.operationId).toEqual(Object.keys(operation.responses));
    }
    expect(plans(document, 'mock', {}).map(({ operation }) => operation.operationId)).toEqual(
      expect.arrayContaining(['getProfile', 'deleteProfile']),
    );
  });

  it('satisfy the coverage rule on the mock: every documented operation and status has a case', () => {
    const exercised = plans(document, 'mock', {}).flatMap(({ operation, plan }) =>
      plan.cases.flatMap((c) =>
        c.status === undefined || c.notApplicable ? [] : [{ operationId: operation.operationId, status: c.status }],
      ),
    );
    expect(missingCoverage(document, exercised)).toEqual([]);
    // Without the per-status cases of the new operation, the rule names what is missing.
    const withoutDelete = exercised.filter((e) => e.operationId !== 'deleteProfile');
    expect(missingCoverage(document, withoutDelete)).toEqual(
      Object.keys([...operations(document)].find((o) => o.operationId === 'deleteProfile')!.responses).map(
        (status) => `deleteProfile ${status}`,
      ),
    );
  });

  it('each get a case file from npm run generate', async () => {
    const files = (await generateArtifacts(document)).map((f) => f.path.split('/').at(-1));
    expect(files).toEqual([...operations(document)].map((o) => `${o.names.file}.contract.test.ts`));
  });

  it('address a dedicated resource for the delete, never the one the other cases use', () => {
    const live = { CONTRACT_PROFILE_ID: 'prof_shared' };
    const byId = Object.fromEntries(
      plans(document, 'server', live).map(({ operation, plan }) => [operation.operationId, plan]),
    );
    const routed = (id: string) => byId[id]!.cases.find((c) => c.title.includes('the server routes'))!;
    expect(routed('getProfile').needs).toEqual(['CONTRACT_PROFILE_ID']);
    expect(routed('deleteProfile').needs).toEqual(['CONTRACT_DELETABLE_PROFILE_ID']);
    expect(missingReason(live, routed('deleteProfile').needs)).toBe('CONTRACT_DELETABLE_PROFILE_ID is not set');
    // Off the mock, the per-status cases are listed as not applicable.
    expect(byId.getProfile!.cases.filter((c) => c.status !== undefined).every((c) => c.notApplicable)).toBe(true);
  });
});

describe('a delete whose resource the document can create', () => {
  it('needs no variable: the suite creates what it deletes, then deletes that', async () => {
    const document = documentWithProfileOperations(true);
    const seen: string[] = [];
    const server = await startHostileServer((request, response) => {
      request.resume();
      seen.push(`${request.method} ${request.url}`);
      if (request.method === 'POST') {
        response
          .writeHead(201, { 'content-type': 'application/json' })
          .end(JSON.stringify({ id: 'prof_made_for_the_delete', created_at: '2026-01-01T00:00:00Z' }));
      } else response.writeHead(204).end();
    });
    try {
      const operation = [...operations(document)].find((o) => o.operationId === 'deleteProfile')!;
      const plan = planOperation(operation, {
        ...settings(document, 'server', { CONTRACT_PROFILE_ID: 'prof_shared' }),
        target: { baseUrl: server.url, token: 'sk_plan' },
      });
      const routed = plan.cases.find((c) => c.title.includes('the server routes'))!;
      expect(routed.needs).toEqual([]);
      await plan.before();
      await routed.run(() => {
        throw new Error('not skipped');
      });
      expect(seen).toEqual(['POST /profiles', 'DELETE /profiles/prof_made_for_the_delete']);
    } finally {
      await server.close();
    }
  });
});

describe("the repository's case files", () => {
  it('are those of its document and no other: an operation it lost leaves none behind', async () => {
    const dir = fileURLToPath(new URL('../generated/', import.meta.url));
    const expected = (await generateArtifacts()).map((f) => f.path.split('/').at(-1)).sort();
    expect(
      readdirSync(dir).sort(),
      'run npm run generate and delete the files of operations the document lost',
    ).toEqual(expected);
  });
});
