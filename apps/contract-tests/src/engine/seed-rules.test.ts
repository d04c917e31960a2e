// The seed's rule cases against the sandbox, which keeps the rules, and against the same sandbox
// through a fetch that breaks one rule at a time: every rule must pass the first, and the rule the
// fetch breaks must fail with the operation, the rule and a curl command.
import { loadOpenApiDocument } from '@browser-cloud/openapi-document';
import { flowTypesOf, DEFAULT_FIXTURE_REFS as R, type RunningSandbox, startSandbox } from '@browser-cloud/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sandboxResources } from '../../scripts/targets.mjs';
import { createDocumentValidator } from './judge.js';
import { type Resources, resourcesFrom } from './resources.js';
import {
  checkRule,
  type RuleContext,
  type RuleOutcome,
  SEED_PLANS,
  type SeedPlan,
  type SeedRule,
  wrongToken,
} from './seed-rules.js';
import { type Fault, faultyFetch, type ProxiedAnswer } from './test-support/faulty-fetch.js';

const document = loadOpenApiDocument();
const validator = createDocumentValidator(document);
const FLOW = flowTypesOf(document);
const TOKEN = R.tokens.owner;
const RESOURCES = resourcesFrom(sandboxResources(R));
const ALL_RULES = Object.values(SEED_PLANS).flatMap((plan) => plan.rules);
const LOGIN = 'loginAuthConnection';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, retryMs: 50, keepAliveMs: 60_000 });
});
beforeEach(() => sandbox.state.reset());
afterAll(() => sandbox?.close());

/** Runs plans in order, as the suite does: each rule's outcome; a rule whose variables are unset is skipped. */
async function runRules(plans: Record<string, SeedPlan>, context: RuleContext): Promise<RuleOutcome[]> {
  const outcomes: RuleOutcome[] = [];
  for (const [operationId, plan] of Object.entries(plans)) {
    for (const rule of plan.rules) {
      const unset = rule.needs.filter((variable) => context.resources[variable] === undefined);
      if (unset.length > 0)
        outcomes.push({ rule: rule.rule, outcome: 'skipped', message: `unset: ${unset.join(', ')}` });
      else outcomes.push(await checkRule(operationId, rule, context));
    }
  }
  return outcomes;
}

function run(
  plans: Record<string, SeedPlan> = SEED_PLANS,
  resources: Resources = RESOURCES,
  fetch?: typeof globalThis.fetch,
): Promise<RuleOutcome[]> {
  return runRules(plans, {
    document,
    target: { baseUrl: sandbox.url, token: TOKEN, fetch },
    limits: { answerMs: 5_000, streamMs: 300 },
    validator,
    resources,
    state: new Map(),
  });
}

const ruleOf = (operationId: string, words: string): [string, SeedRule] => {
  const rule = SEED_PLANS[operationId]?.rules.find((r) => r.rule.includes(words));
  if (!rule) throw new Error(`no rule of ${operationId} says "${words}"`);
  return [operationId, rule];
};
const loginOnly = { [LOGIN]: SEED_PLANS[LOGIN]! };

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;
const isLogin = (a: { method: string; url: string }) =>
  a.method === 'POST' && /^\/auth\/connections\/[^/]+\/login/.test(a.url);
const isRename = (a: { method: string; url: string }) => a.method === 'PATCH' && a.url.startsWith('/profiles/');
const profileAnswer = (answer: ProxiedAnswer, name: string): ProxiedAnswer => ({
  ...answer,
  status: 200,
  headers: { ...answer.headers, 'content-type': 'application/json' },
  body: JSON.stringify({ id: R.profiles.defaultProject.id, name, created_at: '2026-01-01T00:00:00Z' }),
});

describe("the seed's rule cases", () => {
  it('pass the sandbox, which keeps the rules, with every variable set', async () => {
    const outcomes = await run();
    expect(outcomes.filter((o) => o.outcome !== 'passed')).toEqual([]);
    expect(outcomes).toHaveLength(ALL_RULES.length);
  });

  it('skip the planned flow cases with the reason when a flow was in progress before the run', async () => {
    const before = await fetch(`${sandbox.url}/auth/connections/${RESOURCES.CONTRACT_CONNECTION_ID}/login`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(before.status).toBe(200);
    const outcomes = await run(loginOnly);
    const first = outcomes.find((o) => o.rule.startsWith('a login on CONTRACT_CONNECTION_ID'));
    expect(first).toMatchObject({ outcome: 'skipped', message: expect.stringContaining('already in progress') });
    // The conflict itself is still checked.
    expect(outcomes.find((o) => o.rule.startsWith('a second login'))).toMatchObject({ outcome: 'passed' });
  });

  it('skip a rule whose resources are not given, naming them', async () => {
    const { CONTRACT_PROXY_ID: _, ...withoutProxyId } = RESOURCES;
    const outcomes = await run(loginOnly, withoutProxyId);
    expect(outcomes.find((o) => o.rule.includes('both id and name'))).toEqual(
      expect.objectContaining({ outcome: 'skipped', message: 'unset: CONTRACT_PROXY_ID' }),
    );
    expect(outcomes.filter((o) => o.outcome === 'failed')).toEqual([]);
  });

  it("use a wrong token of the real one's shape that is not the real one", () => {
    expect(wrongToken(TOKEN)).toMatch(/^sk_/);
    expect(wrongToken(TOKEN)).toHaveLength(TOKEN.length);
    expect(wrongToken(TOKEN)).not.toBe(TOKEN);
    expect(wrongToken('abc')).not.toBe('abc');
  });

  const faults: [string, [string, SeedRule], Fault][] = [
    [
      'the 409 answered 200',
      ruleOf(LOGIN, 'a second login while a flow is in progress'),
      {
        answer: (a) =>
          isLogin(a.request) && a.status === 409
            ? {
                ...a,
                status: 200,
                body: JSON.stringify({
                  id: RESOURCES.CONTRACT_CONNECTION_ID,
                  flow_type: FLOW.login,
                  hosted_url: 'https://login.example/flow',
                  flow_expires_at: '2030-01-01T00:00:00Z',
                }),
              }
            : a,
      },
    ],
    [
      `${FLOW.reauth} answered ${FLOW.login}`,
      ruleOf(LOGIN, `starts a ${FLOW.reauth} flow`),
      {
        answer: (a) =>
          isLogin(a.request) && a.status === 200
            ? { ...a, body: JSON.stringify({ ...json(a.body), flow_type: FLOW.login }) }
            : a,
      },
    ],
    [
      'both proxy fields accepted',
      ruleOf(LOGIN, 'both id and name'),
      {
        // The server takes the id and drops the name instead of refusing the pair.
        request: (r) => {
          if (!isLogin(r) || !r.body) return r;
          const body = json(r.body);
          const proxy = body.proxy as Record<string, unknown> | undefined;
          if (!proxy || !('id' in proxy) || !('name' in proxy)) return r;
          return { ...r, body: JSON.stringify({ ...body, proxy: { id: proxy.id } }) };
        },
      },
    ],
    [
      'a wrong token accepted',
      ruleOf(LOGIN, 'wrong bearer token'),
      {
        request: (r) =>
          r.headers.authorization && r.headers.authorization !== `Bearer ${TOKEN}`
            ? { ...r, headers: { ...r.headers, authorization: `Bearer ${TOKEN}` } }
            : r,
      },
    ],
    [
      'a rename answered but not applied',
      ruleOf('renameProfile', 'answers to its new name afterwards'),
      {
        // Renames by id are answered as if done, and never reach the server.
        intercept: (r) => {
          if (!isRename(r) || !r.url.startsWith(`/profiles/${R.profiles.defaultProject.id}`)) return undefined;
          const name = json(r.body).name;
          if (typeof name !== 'string' || name === R.profiles.unscoped.name) return undefined;
          return {
            status: 200,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ id: R.profiles.defaultProject.id, name, created_at: '2026-01-01T00:00:00Z' }),
          };
        },
      },
    ],
    [
      'a rename echoing a stale name',
      ruleOf('renameProfile', 'carries the requested name'),
      {
        answer: (a) => (isRename(a.request) && a.status === 200 ? profileAnswer(a, R.profiles.defaultProject.name) : a),
      },
    ],
    [
      'a duplicate name accepted',
      ruleOf('renameProfile', 'another profile of the project has'),
      {
        answer: (a) =>
          isRename(a.request) && a.status === 409 ? profileAnswer(a, String(json(a.request.body).name)) : a,
      },
    ],
    [
      'Last-Event-ID ignored',
      ruleOf('streamBrowserLogs', 'Last-Event-ID'),
      {
        request: (r) => {
          const { 'last-event-id': _, ...headers } = r.headers;
          return { ...r, headers };
        },
      },
    ],
  ];

  it.each(faults)('fail when the server breaks a rule: %s', async (_what, [operationId, rule], fault) => {
    const outcomes = await run(SEED_PLANS, RESOURCES, faultyFetch(fault));
    const outcome = outcomes.find((o) => o.rule === rule.rule);
    expect(outcome?.outcome, JSON.stringify(outcomes, null, 2)).toBe('failed');
    expect(outcome?.message).toContain(`${operationId}: the rule "${rule.rule}" is broken`);
    expect(outcome?.message).toMatch(/\n {2}reproduce: curl -sS -i -X (POST|PATCH|GET) 'http:\/\/127\.0\.0\.1:\d+\//);
    for (const o of outcomes) expect(o.message ?? '').not.toContain(TOKEN);
  });
});
