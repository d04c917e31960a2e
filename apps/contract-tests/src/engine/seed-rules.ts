// The seed's rules that a live server must keep, checked with the operations of the document only
// (no control endpoint): each rule is one case with its own failure, naming the operation, the
// rule, what was answered and a curl command that sends the request again.
//
// Some rules share a resource and depend on what came before: a login answers 409 only while a
// flow is in progress, and a connection gives one successful login per flow. Those are planned in
// order (`LOGIN_FLOW_PLAN`): the first login of the run on each connection is the planned one, the
// conflict comes after it, whatever the order of the files or the seed.
import { readEventStream, type SseEvent } from '@browser-cloud/sse';
import type { DocumentValidator } from '../harness/document-validator.js';
import type { ResourceName, Resources } from '../harness/resources.js';
import { FLOW } from '../harness/flow-types.js';
import { type Answer, type ExchangeLimits, type ExchangeTarget, exchange, NoAnswerError } from './exchange.js';
import { type RequestCase, toCurl } from './request-case.js';

export interface RuleContext {
  target: ExchangeTarget;
  limits?: ExchangeLimits | undefined;
  validator: DocumentValidator;
  resources: Resources;
  /** What earlier cases of a plan learned (the answer of the first login…). */
  state: Map<string, unknown>;
}

export interface SeedRule {
  operationId: string;
  /** The rule, as the case's title says it. */
  rule: string;
  /** The resources it needs; unset, the case is skipped and names their variables. */
  needs: readonly ResourceName[];
  check(context: RuleContext): Promise<void>;
}

/** A rule the server broke: the message names the operation, the rule, the answer and a curl. */
export class RuleBroken extends Error {
  override name = 'RuleBroken';
}

/** The target's state makes the rule impossible to check now; the message says why. */
export class RuleNotCheckable extends Error {
  override name = 'RuleNotCheckable';
}

const ERROR = '#/components/schemas/Error';
const LOGIN_RESPONSE = '#/components/schemas/LoginResponse';
const PROFILE = '#/components/schemas/Profile';
const TEMPLATES: Record<string, { method: string; path: string; accept: string }> = {
  loginAuthConnection: { method: 'POST', path: '/auth/connections/{id}/login', accept: 'application/json' },
  renameProfile: { method: 'PATCH', path: '/profiles/{id_or_name}', accept: 'application/json' },
  streamBrowserLogs: { method: 'GET', path: '/browsers/{id}/logs/stream', accept: 'text/event-stream' },
};

interface Sent {
  answer: Answer;
  curl: string;
}

/**
 * A token of the same shape as a real one that no server issued: the real token's short prefix
 * (`sk_`) and length, the rest fixed text. Not secret, so its curl command spells it out.
 */
export function wrongToken(token: string): string {
  const prefix = /^[A-Za-z]{1,8}_/.exec(token)?.[0] ?? '';
  const filler = 'contractwrongtoken0123456789';
  let rest = '';
  while (rest.length < Math.max(8, token.length - prefix.length)) rest += filler;
  const wrong = prefix + rest.slice(0, Math.max(8, token.length - prefix.length));
  return wrong === token ? `${wrong}x` : wrong;
}

async function send(
  context: RuleContext,
  operationId: string,
  request: {
    pathParams: Record<string, string>;
    query?: Record<string, unknown>;
    body?: unknown;
    headers?: Record<string, string>;
    token?: string;
  },
): Promise<Sent> {
  const template = TEMPLATES[operationId]!;
  const c: RequestCase = {
    operationId,
    method: template.method,
    pathTemplate: template.path,
    pathParams: request.pathParams,
    query: request.query ?? {},
    headers: {
      Accept: template.accept,
      ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...request.headers,
    },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    withToken: true,
  };
  const token = request.token ?? context.target.token;
  let curl = toCurl(c, context.target.baseUrl);
  if (request.token !== undefined) {
    curl = curl.replace('"Authorization: Bearer $API_TOKEN"', `'Authorization: Bearer ${request.token}'`);
  }
  try {
    return { answer: await exchange({ ...context.target, token }, c, context.limits), curl };
  } catch (error) {
    if (error instanceof NoAnswerError) throw new RuleBroken(`${operationId}: ${error.message}\n  reproduce: ${curl}`);
    throw error;
  }
}

function broken(operationId: string, rule: string, problems: string[], sent: Sent): never {
  const { answer } = sent;
  throw new RuleBroken(
    [
      `${operationId}: the rule "${rule}" is broken`,
      ...problems.map((p) => `  - ${p}`),
      `  answer: ${answer.status} ${answer.contentType} ${answer.text.slice(0, 300)}`,
      `  reproduce: ${sent.curl}`,
    ].join('\n'),
  );
}

/** Problems of an answer that must be `status` with an Error body. */
function errorProblems(context: RuleContext, sent: Sent, status: number, why = ''): string[] {
  const { answer } = sent;
  if (answer.status !== status) {
    return [
      `status: expected ${status} with an Error body${why}, got ${answer.status}${answer.status < 300 ? ' (accepted)' : ''}`,
    ];
  }
  if (answer.json === undefined) return [`body: expected an Error body, got "${answer.text.slice(0, 120)}"`];
  return context.validator.validateAt(ERROR, answer.json).map((p) => `Error body: ${p}`);
}

function expectError(context: RuleContext, rule: SeedRule, sent: Sent, status: number, why = ''): void {
  const problems = errorProblems(context, sent, status, why);
  if (problems.length > 0) broken(rule.operationId, rule.rule, problems, sent);
}

/** The body of a 200 that must validate against `pointer`, or the rule is broken. */
function expectOk(context: RuleContext, rule: SeedRule, sent: Sent, pointer: string): Record<string, unknown> {
  const { answer } = sent;
  if (answer.status !== 200) broken(rule.operationId, rule.rule, [`status: expected 200, got ${answer.status}`], sent);
  const problems = context.validator.validateAt(pointer, answer.json);
  if (problems.length > 0)
    broken(
      rule.operationId,
      rule.rule,
      problems.map((p) => `body: ${p}`),
      sent,
    );
  return answer.json as Record<string, unknown>;
}

// ─── Login flows, in this order ──────────────────────────────────────────────────────────────────

const FIRST_LOGIN = 'login.first';
const FIRST_REAUTH = 'login.reauth';
const inProgressBefore = (variable: string) =>
  `a login flow was already in progress for ${variable} before this case (409), so it cannot start one: complete the flow or let it expire (flow_expires_at), or give the suite a connection set aside for it`;

function firstLogin(
  variable: 'CONTRACT_CONNECTION_ID' | 'CONTRACT_REAUTH_CONNECTION_ID',
  kind: keyof typeof FLOW,
): SeedRule {
  const flowType = FLOW[kind];
  const resource = variable === 'CONTRACT_CONNECTION_ID' ? 'connectionId' : 'reauthConnectionId';
  const key = kind === 'login' ? FIRST_LOGIN : FIRST_REAUTH;
  const proxyNote =
    kind === 'login' ? ' (through CONTRACT_PROXY_ID when set)' : ' (through CONTRACT_PROXY_NAME when set)';
  const rule: SeedRule = {
    operationId: 'loginAuthConnection',
    rule: `a login on ${variable} starts a ${flowType} flow${proxyNote}`,
    needs: [resource],
    async check(context) {
      const { proxyId, proxyName } = context.resources;
      const proxy =
        kind === 'login' ? (proxyId ? { id: proxyId } : undefined) : proxyName ? { name: proxyName } : undefined;
      const sent = await send(context, rule.operationId, {
        pathParams: { id: context.resources[resource]! },
        body: proxy ? { proxy } : {},
      });
      context.state.set(key, sent);
      if (sent.answer.status === 409) throw new RuleNotCheckable(inProgressBefore(variable));
      const flow = expectOk(context, rule, sent, LOGIN_RESPONSE);
      if (flow.flow_type !== flowType) {
        const why =
          kind === 'login' ? 'a connection without stored credentials' : 'a connection with stored credentials';
        broken(
          rule.operationId,
          rule.rule,
          [`flow_type: expected ${flowType} (${why}), got ${String(flow.flow_type)}`],
          sent,
        );
      }
    },
  };
  return rule;
}

/** The proxy reference of a planned first login was accepted: judged on that login's answer. */
function proxyAlone(member: 'id' | 'name'): SeedRule {
  const variable = member === 'id' ? 'CONTRACT_PROXY_ID' : 'CONTRACT_PROXY_NAME';
  const connection = member === 'id' ? 'CONTRACT_CONNECTION_ID' : 'CONTRACT_REAUTH_CONNECTION_ID';
  const rule: SeedRule = {
    operationId: 'loginAuthConnection',
    rule: `a ProxyRef with ${member} alone (${variable}, an active proxy of the project) is accepted`,
    needs: member === 'id' ? ['connectionId', 'proxyId'] : ['reauthConnectionId', 'proxyName'],
    async check(context) {
      const sent = context.state.get(member === 'id' ? FIRST_LOGIN : FIRST_REAUTH) as Sent | undefined;
      if (!sent) throw new RuleNotCheckable(`the planned first login on ${connection} did not run`);
      if (sent.answer.status === 409) throw new RuleNotCheckable(inProgressBefore(connection));
      if (sent.answer.status !== 200) {
        broken(
          rule.operationId,
          rule.rule,
          [`status: the login through it answered ${sent.answer.status}, expected 200`],
          sent,
        );
      }
    },
  };
  return rule;
}

const secondLogin: SeedRule = {
  operationId: 'loginAuthConnection',
  rule: 'a second login while a flow is in progress answers 409 with an Error body',
  needs: ['connectionId'],
  async check(context) {
    const first = context.state.get(FIRST_LOGIN) as Sent | undefined;
    if (!first || (first.answer.status !== 200 && first.answer.status !== 409)) {
      throw new RuleNotCheckable(
        `the first login on CONTRACT_CONNECTION_ID answered ${first?.answer.status ?? 'nothing'}, so no flow is known to be in progress`,
      );
    }
    const sent = await send(context, this.operationId, {
      pathParams: { id: context.resources.connectionId! },
      body: {},
    });
    expectError(context, this, sent, 409, ' (a login flow is already in progress)');
  },
};

const bothProxyMembers: SeedRule = {
  operationId: 'loginAuthConnection',
  rule: 'a ProxyRef with both id and name of one real proxy is refused with 400 (exactly one of them)',
  needs: ['connectionId', 'proxyId', 'proxyName'],
  async check(context) {
    const { connectionId, proxyId, proxyName } = context.resources;
    const sent = await send(context, this.operationId, {
      pathParams: { id: connectionId! },
      body: { proxy: { id: proxyId, name: proxyName } },
    });
    expectError(context, this, sent, 400, ' (each alone names an active proxy, so only "exactly one" refuses it)');
  },
};

function wrongTokenRule(
  operationId: string,
  needs: readonly ResourceName[],
  request: (r: Resources) => Parameters<typeof send>[2],
): SeedRule {
  return {
    operationId,
    rule: 'a well-formed but wrong bearer token answers 401 with an Error body',
    needs,
    async check(context) {
      const sent = await send(context, operationId, {
        ...request(context.resources),
        token: wrongToken(context.target.token),
      });
      expectError(context, this, sent, 401, ' (the token is not one the server issued)');
    },
  };
}

/**
 * The login cases, in the order they must run: both first logins before anything else logs in on
 * their connections, then the conflict and the refusals (on a connection whose flow is in progress,
 * so that a server that wrongly accepts them starts nothing).
 */
export const LOGIN_FLOW_PLAN: readonly SeedRule[] = [
  firstLogin('CONTRACT_CONNECTION_ID', 'login'),
  proxyAlone('id'),
  firstLogin('CONTRACT_REAUTH_CONNECTION_ID', 'reauth'),
  proxyAlone('name'),
  secondLogin,
  bothProxyMembers,
  wrongTokenRule('loginAuthConnection', ['connectionId'], (r) => ({ pathParams: { id: r.connectionId! }, body: {} })),
];

// ─── Renames, in this order ──────────────────────────────────────────────────────────────────────

const RENAMED = 'rename.current';
const freshName = () => `contract-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

const renameApplies: SeedRule = {
  operationId: 'renameProfile',
  rule: 'a rename answers 200 with a Profile that carries the requested name',
  needs: ['profileId'],
  async check(context) {
    const name = freshName();
    const sent = await send(context, this.operationId, {
      pathParams: { id_or_name: context.resources.profileId! },
      body: { name },
    });
    const profile = expectOk(context, this, sent, PROFILE);
    if (profile.name !== name) {
      broken(
        this.operationId,
        this.rule,
        [`name: expected "${name}" (the requested name), got ${JSON.stringify(profile.name)}`],
        sent,
      );
    }
    context.state.set(RENAMED, { id: profile.id, name });
  },
};

const renameSticks: SeedRule = {
  operationId: 'renameProfile',
  rule: 'the renamed profile answers to its new name afterwards (renaming it again by that name succeeds)',
  needs: ['profileId'],
  async check(context) {
    const renamed = context.state.get(RENAMED) as { id: unknown; name: string } | undefined;
    if (!renamed) throw new RuleNotCheckable('the rename before it did not succeed, so there is no new name to use');
    const name = freshName();
    const sent = await send(context, this.operationId, { pathParams: { id_or_name: renamed.name }, body: { name } });
    if (sent.answer.status === 404) {
      broken(
        this.operationId,
        this.rule,
        [`status: 404 for "${renamed.name}", the name the previous rename answered with: the rename was not applied`],
        sent,
      );
    }
    const profile = expectOk(context, this, sent, PROFILE);
    const problems: string[] = [];
    if (profile.id !== renamed.id)
      problems.push(
        `id: expected ${JSON.stringify(renamed.id)} (the renamed profile), got ${JSON.stringify(profile.id)}`,
      );
    if (profile.name !== name) problems.push(`name: expected "${name}", got ${JSON.stringify(profile.name)}`);
    if (problems.length > 0) broken(this.operationId, this.rule, problems, sent);
    context.state.set(RENAMED, { id: profile.id, name });
  },
};

const takenName: SeedRule = {
  operationId: 'renameProfile',
  rule: 'a name another profile of the project has answers 409 with an Error body',
  needs: ['profileId', 'takenProfileName'],
  async check(context) {
    const { profileId, takenProfileName } = context.resources;
    const sent = await send(context, this.operationId, {
      pathParams: { id_or_name: profileId! },
      body: { name: takenProfileName },
    });
    expectError(context, this, sent, 409, ' (names are unique within the logical project)');
  },
};

export const RENAME_PLAN: readonly SeedRule[] = [
  renameApplies,
  renameSticks,
  takenName,
  wrongTokenRule('renameProfile', ['profileId'], (r) => ({
    pathParams: { id_or_name: r.profileId! },
    body: { name: freshName() },
  })),
];

// ─── Log streams ─────────────────────────────────────────────────────────────────────────────────

async function eventsOf(answer: Answer): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of readEventStream(new Response(answer.text).body!)) events.push(event);
  return events;
}

const resumesAfterLastEventId: SeedRule = {
  operationId: 'streamBrowserLogs',
  rule: 'a reconnect with Last-Event-ID of event k starts at event k+1',
  needs: ['browserId', 'logPath'],
  async check(context) {
    const { browserId, logPath } = context.resources;
    const request = { pathParams: { id: browserId! }, query: { source: 'path', path: logPath } };
    const whole = await send(context, this.operationId, request);
    if (whole.answer.status !== 200) {
      broken(
        this.operationId,
        this.rule,
        [`status: reading the whole stream answered ${whole.answer.status}, expected 200`],
        whole,
      );
    }
    const events = await eventsOf(whole.answer);
    if (events.length < 2) {
      throw new RuleNotCheckable(
        `the log CONTRACT_LOG_PATH has ${events.length} event(s); resuming needs at least two`,
      );
    }
    if (events.some((e) => e.id === '')) {
      throw new RuleNotCheckable("the stream's events carry no id: field, so there is no Last-Event-ID to resume from");
    }
    const k = Math.floor((events.length - 1) / 2);
    const resumed = await send(context, this.operationId, { ...request, headers: { 'Last-Event-ID': events[k]!.id } });
    if (resumed.answer.status !== 200) {
      broken(
        this.operationId,
        this.rule,
        [`status: the reconnect answered ${resumed.answer.status}, expected 200`],
        resumed,
      );
    }
    const first = (await eventsOf(resumed.answer))[0];
    const expected = events[k + 1]!;
    if (first?.id !== expected.id || first.data !== expected.data) {
      const at = first ? events.findIndex((e) => e.id === first.id) : -1;
      broken(
        this.operationId,
        this.rule,
        [
          `first event after Last-Event-ID: ${events[k]!.id} (event ${k + 1} of ${events.length}): expected id ${expected.id} (event ${k + 2}), got ${first ? `id ${first.id}${at >= 0 ? ` (event ${at + 1})` : ''}` : 'no event'}`,
        ],
        resumed,
      );
    }
  },
};

export const STREAM_PLAN: readonly SeedRule[] = [
  resumesAfterLastEventId,
  wrongTokenRule('streamBrowserLogs', ['browserId', 'logPath'], (r) => ({
    pathParams: { id: r.browserId! },
    query: { source: 'path', path: r.logPath },
  })),
];

export interface RuleOutcome {
  operationId: string;
  rule: string;
  outcome: 'passed' | 'failed' | 'skipped';
  message?: string;
}

/** Runs a plan in order outside vitest (the engine's own tests): each rule's outcome. */
export async function runRules(plan: readonly SeedRule[], context: RuleContext): Promise<RuleOutcome[]> {
  const outcomes: RuleOutcome[] = [];
  for (const rule of plan) {
    const base = { operationId: rule.operationId, rule: rule.rule };
    const unset = rule.needs.filter((name) => context.resources[name] === undefined);
    if (unset.length > 0) {
      outcomes.push({ ...base, outcome: 'skipped', message: `unset: ${unset.join(', ')}` });
      continue;
    }
    try {
      await rule.check(context);
      outcomes.push({ ...base, outcome: 'passed' });
    } catch (error) {
      if (error instanceof RuleNotCheckable) outcomes.push({ ...base, outcome: 'skipped', message: error.message });
      else
        outcomes.push({ ...base, outcome: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  }
  return outcomes;
}
