// The seed's rule cases against the sandbox, which keeps the rules, and against the same sandbox
// behind a proxy that breaks one rule at a time: every rule must pass the first, and the rule the
// proxy breaks must fail with the operation, the rule and a curl command.
import { DEFAULT_FIXTURE_REFS as R, type RunningSandbox, startSandbox } from '@browser-cloud/sandbox';
import { loadOpenApiDocument } from '@browser-cloud/openapi-document';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentValidator } from '../harness/document-validator.js';
import type { Resources } from '../harness/resources.js';
import { FLOW } from '../harness/flow-types.js';
import {
  LOGIN_FLOW_PLAN,
  RENAME_PLAN,
  type RuleOutcome,
  runRules,
  STREAM_PLAN,
  type SeedRule,
  wrongToken,
} from './seed-rules.js';
import { type Fault, type ProxiedAnswer, startFaultProxy } from './test-support/fault-proxy.js';

const validator = createDocumentValidator(loadOpenApiDocument());
const TOKEN = R.tokens.owner;
const RESOURCES: Resources = {
  connectionId: R.authConnections.withoutCredentials,
  reauthConnectionId: R.authConnections.withCredentials,
  proxyId: R.proxies.datacenter.id,
  proxyName: R.proxies.datacenter.name,
  profileId: R.profiles.defaultProject.id,
  takenProfileName: R.profiles.unscoped.name,
  browserId: R.browsers.main.id,
  logPath: R.browsers.main.path,
};
const ALL = [...LOGIN_FLOW_PLAN, ...RENAME_PLAN, ...STREAM_PLAN];

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, retryMs: 50, keepAliveMs: 60_000 });
});
beforeEach(() => sandbox.state.reset());
afterAll(() => sandbox?.close());

function run(baseUrl: string, plan: readonly SeedRule[] = ALL, resources = RESOURCES): Promise<RuleOutcome[]> {
  return runRules(plan, {
    target: { baseUrl, token: TOKEN },
    limits: { answerMs: 5_000, streamMs: 300 },
    validator,
    resources,
    state: new Map(),
  });
}

const ruleOf = (plan: readonly SeedRule[], words: string) => {
  const rule = plan.find((r) => r.rule.includes(words));
  if (!rule) throw new Error(`no rule says "${words}"`);
  return rule;
};

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
    const outcomes = await run(sandbox.url);
    expect(outcomes.filter((o) => o.outcome !== 'passed')).toEqual([]);
    expect(outcomes).toHaveLength(ALL.length);
  });

  it('skip the planned flow cases with the reason when a flow was in progress before the run', async () => {
    const before = await fetch(`${sandbox.url}/auth/connections/${RESOURCES.connectionId}/login`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(before.status).toBe(200);
    const outcomes = await run(sandbox.url, LOGIN_FLOW_PLAN);
    const first = outcomes.find((o) => o.rule.startsWith('a login on CONTRACT_CONNECTION_ID'));
    expect(first).toMatchObject({ outcome: 'skipped', message: expect.stringContaining('already in progress') });
    // The conflict itself is still checked.
    expect(outcomes.find((o) => o.rule.startsWith('a second login'))).toMatchObject({ outcome: 'passed' });
  });

  it('skip a rule whose resources are not given, naming them', async () => {
    const { proxyId: _, ...withoutProxyId } = RESOURCES;
    const outcomes = await run(sandbox.url, LOGIN_FLOW_PLAN, withoutProxyId);
    expect(outcomes.find((o) => o.rule.includes('both id and name'))).toEqual(
      expect.objectContaining({ outcome: 'skipped', message: 'unset: proxyId' }),
    );
    expect(outcomes.filter((o) => o.outcome === 'failed')).toEqual([]);
  });

  it("use a wrong token of the real one's shape that is not the real one", () => {
    expect(wrongToken(TOKEN)).toMatch(/^sk_/);
    expect(wrongToken(TOKEN)).toHaveLength(TOKEN.length);
    expect(wrongToken(TOKEN)).not.toBe(TOKEN);
    expect(wrongToken('abc')).not.toBe('abc');
  });

  const faults: [string, SeedRule, Fault][] = [
    [
      'the 409 answered 200',
      ruleOf(LOGIN_FLOW_PLAN, 'a second login while a flow is in progress'),
      {
        answer: (a) =>
          isLogin(a.request) && a.status === 409
            ? {
                ...a,
                status: 200,
                body: JSON.stringify({
                  id: RESOURCES.connectionId,
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
      ruleOf(LOGIN_FLOW_PLAN, `starts a ${FLOW.reauth} flow`),
      {
        answer: (a) =>
          isLogin(a.request) && a.status === 200
            ? { ...a, body: JSON.stringify({ ...json(a.body), flow_type: FLOW.login }) }
            : a,
      },
    ],
    [
      'both proxy fields accepted',
      ruleOf(LOGIN_FLOW_PLAN, 'both id and name'),
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
      ruleOf(LOGIN_FLOW_PLAN, 'wrong bearer token'),
      {
        request: (r) =>
          r.headers.authorization && r.headers.authorization !== `Bearer ${TOKEN}`
            ? { ...r, headers: { ...r.headers, authorization: `Bearer ${TOKEN}` } }
            : r,
      },
    ],
    [
      'a rename answered but not applied',
      ruleOf(RENAME_PLAN, 'answers to its new name afterwards'),
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
      ruleOf(RENAME_PLAN, 'carries the requested name'),
      {
        answer: (a) => (isRename(a.request) && a.status === 200 ? profileAnswer(a, R.profiles.defaultProject.name) : a),
      },
    ],
    [
      'a duplicate name accepted',
      ruleOf(RENAME_PLAN, 'another profile of the project has'),
      {
        answer: (a) =>
          isRename(a.request) && a.status === 409 ? profileAnswer(a, String(json(a.request.body).name)) : a,
      },
    ],
    [
      'Last-Event-ID ignored',
      ruleOf(STREAM_PLAN, 'Last-Event-ID'),
      {
        request: (r) => {
          const { 'last-event-id': _, ...headers } = r.headers;
          return { ...r, headers };
        },
      },
    ],
  ];

  it.each(faults)('fail when the server breaks a rule: %s', async (_what, rule, fault) => {
    const proxy = await startFaultProxy(sandbox.url, fault);
    try {
      const outcomes = await run(proxy.url);
      const outcome = outcomes.find((o) => o.rule === rule.rule);
      expect(outcome?.outcome, JSON.stringify(outcomes, null, 2)).toBe('failed');
      expect(outcome?.message).toContain(`${rule.operationId}: the rule "${rule.rule}" is broken`);
      expect(outcome?.message).toMatch(/\n {2}reproduce: curl -sS -i -X (POST|PATCH|GET) 'http:\/\/127\.0\.0\.1:\d+\//);
      for (const o of outcomes) expect(o.message ?? '').not.toContain(TOKEN);
    } finally {
      await proxy.close();
    }
  });
});
