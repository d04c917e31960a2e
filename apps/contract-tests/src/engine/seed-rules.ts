// The seed's rules a live server must keep beyond the document's schemas (README), checked with the
// document's operations only. A plan runs in order: some rules depend on what came before (a login
// answers 409 only while a flow is in progress), so the run's first login on each connection is planned.
import { findOperation, loadOpenApiDocument, type Operation } from '@browser-cloud/openapi-document';
import { flowTypesOf } from '@browser-cloud/sandbox';
import { readEventStream, type SseEvent } from '@browser-cloud/sse';
import { type Answer, exchange } from './exchange.js';
import { Broken } from './judge.js';
import { type RequestParts, requestOf, toCurl } from './request-case.js';
import type { Resources } from './resources.js';
import type { RunCasesOptions } from './plan.js';

export interface RuleContext extends Pick<RunCasesOptions, 'document' | 'target' | 'limits' | 'validator'> {
  resources: Resources;
  /** What earlier rules of the plan learned (the answer of the first login…). */
  state: Map<string, unknown>;
}

/** A rule: a `check`, or one `request` whose answer must be `answers[0]`, for the reason `answers[1]`. */
export type SeedRule = {
  /** The rule, as the case's title says it. */
  rule: string;
  /** The variables of the resources it needs; unset, the case does not run and names them. */
  needs: readonly string[];
} & (
  | { check(context: RuleContext): Promise<void> }
  | { answers: [number, string]; request(context: RuleContext, resources: Resources): Request }
);

/** The rules of one operation, in order, and what puts back what they change. */
export type SeedPlan = { rules: readonly SeedRule[]; restore?(context: RuleContext): Promise<void> };

type Sent = { operation: Operation; answer: Answer; curl: string };

/** The target's state makes the rule impossible to check now; the message says why. */
class RuleNotCheckable extends Error {}

/** `token`: another token than the target's; not secret, so its curl command spells it out. */
type Request = RequestParts & { token?: string };

/** A token of a real one's shape that no server issued: its short prefix (`sk_`) and length, the rest fixed text. */
export function wrongToken(token: string): string {
  const prefix = /^[A-Za-z]{1,8}_/.exec(token)?.[0] ?? '';
  const length = Math.max(8, token.length - prefix.length);
  const wrong = prefix + 'contractwrongtoken0123456789'.repeat(Math.ceil(length / 28)).slice(0, length);
  return wrong === token ? `${wrong}x` : wrong;
}

async function send(context: RuleContext, operationId: string, request: Request): Promise<Sent> {
  const operation = findOperation(context.document, operationId);
  const c = requestOf(operation, request);
  const curl = toCurl(c, context.target.baseUrl, request.token);
  const target = { ...context.target, token: request.token ?? context.target.token };
  const answer = await exchange(target, c, context.limits).catch((error: unknown) => {
    throw error instanceof Broken ? new Broken(error.problems, { curl }) : error;
  });
  return { operation, answer, curl };
}

/**
 * The JSON body of an answer that must be `status` with the body and headers the document gives
 * for it (the judge's checks), or the rule is broken. `why` says why that status.
 */
function expect(context: RuleContext, sent: Sent, status: number, why = ''): Record<string, unknown> {
  const { answer, operation } = sent;
  const accepted = answer.status < 300 && status >= 400 ? ' (accepted)' : '';
  const problems =
    answer.status === status
      ? context.validator.judge(operation, answer, [status])
      : [`status: expected ${status}${why}, got ${answer.status}${accepted}`];
  if (problems.length > 0) throw new Broken(problems, sent);
  return answer.json as Record<string, unknown>;
}

const wrongTokenRule = (needs: readonly string[], request: (r: Resources) => Request): SeedRule => ({
  rule: 'a well-formed but wrong bearer token answers 401 with an Error body',
  needs,
  answers: [401, ' (the token is not one the server issued)'],
  request: (context, r) => ({ ...request(r), token: wrongToken(context.target.token) }),
});

export type RuleOutcome = { rule: string; outcome: 'passed' | 'failed' | 'skipped'; message?: string };

/** Checks one rule: passed, failed with the operation, the rule, the answer and a curl command, or skipped. */
export async function checkRule(operationId: string, rule: SeedRule, context: RuleContext): Promise<RuleOutcome> {
  const base = { rule: rule.rule };
  try {
    if ('check' in rule) await rule.check(context);
    else expect(context, await send(context, operationId, rule.request(context, context.resources)), ...rule.answers);
    return { ...base, outcome: 'passed' };
  } catch (error) {
    if (error instanceof RuleNotCheckable) return { ...base, outcome: 'skipped', message: error.message };
    const head = `${operationId}: the rule "${rule.rule}" is broken`;
    return { ...base, outcome: 'failed', message: error instanceof Broken ? error.report(head, 300) : String(error) };
  }
}

// ─── Login flows, in this order ──────────────────────────────────────────────────────────────────

const LOGIN = 'loginAuthConnection';
/** The document's flow types, for the titles (the checks read the run's document). */
const FLOW = flowTypesOf(loadOpenApiDocument());
const CONNECTION = 'CONTRACT_CONNECTION_ID';
const REAUTH_CONNECTION = 'CONTRACT_REAUTH_CONNECTION_ID';
const PROXY = { id: 'CONTRACT_PROXY_ID', name: 'CONTRACT_PROXY_NAME' } as const;
const inProgressBefore = (variable: string) =>
  `a login flow was already in progress for ${variable} before this case (409), so it cannot start one: complete the flow or let it expire (flow_expires_at), or set ${variable} to a connection set aside for the suite`;

/** The run's first login on a connection, through a proxy when one is given; its answer is kept for the rules after it. */
function firstLogin(variable: string, kind: 'login' | 'reauth', proxy: 'id' | 'name'): SeedRule {
  return {
    rule: `a login on ${variable} starts a ${FLOW[kind]} flow (through ${PROXY[proxy]} when set)`,
    needs: [variable],
    async check(context) {
      const flowType = flowTypesOf(context.document)[kind];
      const ref = context.resources[PROXY[proxy]];
      const body = ref ? { proxy: { [proxy]: ref } } : {};
      const sent = await send(context, LOGIN, { path: { id: context.resources[variable]! }, body });
      context.state.set(variable, sent);
      if (sent.answer.status === 409) throw new RuleNotCheckable(inProgressBefore(variable));
      const { flow_type } = expect(context, sent, 200);
      if (flow_type !== flowType) {
        const why = `a connection ${kind === 'login' ? 'without' : 'with'} stored credentials`;
        throw new Broken([`flow_type: expected ${flowType} (${why}), got ${String(flow_type)}`], sent);
      }
    },
  };
}

/** The proxy reference of a planned first login was accepted: judged on that login's answer. */
function proxyAlone(member: 'id' | 'name', connection: string): SeedRule {
  return {
    rule: `a ProxyRef with ${member} alone (${PROXY[member]}, an active proxy of the project) is accepted`,
    needs: [connection, PROXY[member]],
    async check(context) {
      const sent = context.state.get(connection) as Sent | undefined;
      if (!sent) throw new RuleNotCheckable(`the planned first login on ${connection} did not run`);
      if (sent.answer.status === 409) throw new RuleNotCheckable(inProgressBefore(connection));
      if (sent.answer.status !== 200)
        throw new Broken([`status: the login through it answered ${sent.answer.status}, expected 200`], sent);
    },
  };
}

/** The first logins before any other on their connections; then the conflict, and the refusals on a flow in progress. */
const LOGIN_PLAN: SeedPlan = {
  rules: [
    firstLogin(CONNECTION, 'login', 'id'),
    proxyAlone('id', CONNECTION),
    firstLogin(REAUTH_CONNECTION, 'reauth', 'name'),
    proxyAlone('name', REAUTH_CONNECTION),
    {
      rule: 'a second login while a flow is in progress answers 409 with an Error body',
      needs: [CONNECTION],
      answers: [409, ' (a login flow is already in progress)'],
      request({ state }, r) {
        const first = (state.get(CONNECTION) as Sent | undefined)?.answer.status;
        if (first !== 200 && first !== 409) {
          const why = `the first login on ${CONNECTION} answered ${first ?? 'nothing'}, so no flow is known to be in progress`;
          throw new RuleNotCheckable(why);
        }
        return { path: { id: r[CONNECTION]! }, body: {} };
      },
    },
    {
      rule: 'a ProxyRef with both id and name of one real proxy is refused with 400 (exactly one of them)',
      needs: [CONNECTION, PROXY.id, PROXY.name],
      answers: [400, ' (each alone names an active proxy, so only "exactly one" refuses it)'],
      request: (_, r) => ({ path: { id: r[CONNECTION]! }, body: { proxy: { id: r[PROXY.id], name: r[PROXY.name] } } }),
    },
    wrongTokenRule([CONNECTION], (r) => ({ path: { id: r[CONNECTION]! }, body: {} })),
  ],
};

// ─── Renames, in this order ──────────────────────────────────────────────────────────────────────

const RENAME = 'renameProfile';
const PROFILE = 'CONTRACT_PROFILE_ID';
const RENAMED = 'rename.current';
const freshName = () => `contract-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/** Renames the profile and checks that the answer is that profile (`id`, when known) with the new name. */
async function renameTo(context: RuleContext, idOrName: string, id?: unknown): Promise<void> {
  const name = freshName();
  const sent = await send(context, RENAME, { path: { id_or_name: idOrName }, body: { name } });
  if (sent.answer.status === 404 && id !== undefined) {
    const why = `status: 404 for "${idOrName}", the name the previous rename answered with: it was not applied`;
    throw new Broken([why], sent);
  }
  const profile = expect(context, sent, 200);
  const problems: string[] = [];
  if (id !== undefined && profile.id !== id)
    problems.push(`id: expected ${JSON.stringify(id)} (the renamed profile), got ${JSON.stringify(profile.id)}`);
  if (profile.name !== name)
    problems.push(`name: expected "${name}" (the requested name), got ${JSON.stringify(profile.name)}`);
  if (problems.length > 0) throw new Broken(problems, sent);
  context.state.set(RENAMED, { id: profile.id, name });
}

const RENAME_PLAN: SeedPlan = {
  rules: [
    {
      rule: 'a rename answers 200 with a Profile that carries the requested name',
      needs: [PROFILE],
      check: (context) => renameTo(context, context.resources[PROFILE]!),
    },
    {
      rule: 'the renamed profile answers to its new name afterwards (renaming it again by that name succeeds)',
      needs: [PROFILE],
      async check(context) {
        const renamed = context.state.get(RENAMED) as { id: unknown; name: string } | undefined;
        if (!renamed)
          throw new RuleNotCheckable('the rename before it did not succeed, so there is no new name to use');
        await renameTo(context, renamed.name, renamed.id);
      },
    },
    {
      rule: 'a name another profile of the project has answers 409 with an Error body',
      needs: [PROFILE, 'CONTRACT_TAKEN_PROFILE_NAME'],
      answers: [409, ' (names are unique within the logical project)'],
      request: (_, r) => ({ path: { id_or_name: r[PROFILE]! }, body: { name: r.CONTRACT_TAKEN_PROFILE_NAME } }),
    },
    wrongTokenRule([PROFILE], (r) => ({ path: { id_or_name: r[PROFILE]! }, body: { name: freshName() } })),
  ],
  /** Puts the name back to CONTRACT_PROFILE_NAME: the suite cannot learn the name by itself. */
  async restore(context) {
    const { [PROFILE]: id, CONTRACT_PROFILE_NAME: name } = context.resources;
    if (id && name) await send(context, RENAME, { path: { id_or_name: id }, body: { name } });
    else if (id)
      console.info(`[contract] ${RENAME}: CONTRACT_PROFILE_NAME is not set, so the renamed profile keeps its new name`);
  },
};

// ─── Log streams ─────────────────────────────────────────────────────────────────────────────────

const STREAM = 'streamBrowserLogs';
const BROWSER = 'CONTRACT_BROWSER_ID';
const LOG = 'CONTRACT_LOG_PATH';
const logOf = (r: Resources) => ({ path: { id: r[BROWSER]! }, query: { source: 'path', path: r[LOG] } });

/** The events of a stream's answer, read raw (`@browser-cloud/sse`'s parser, not the client's replay filter). */
async function eventsOf(context: RuleContext, sent: Sent): Promise<SseEvent[]> {
  expect(context, sent, 200);
  const events: SseEvent[] = [];
  for await (const event of readEventStream(new Response(sent.answer.text).body!)) events.push(event);
  return events;
}

const STREAM_PLAN: SeedPlan = {
  rules: [
    {
      rule: 'a reconnect with Last-Event-ID of event k starts at event k+1',
      needs: [BROWSER, LOG],
      async check(context) {
        const events = await eventsOf(context, await send(context, STREAM, logOf(context.resources)));
        if (events.length < 2)
          throw new RuleNotCheckable(`the log ${LOG} has ${events.length} event(s); resuming needs at least two`);
        if (events.some((e) => e.id === ''))
          throw new RuleNotCheckable("the stream's events carry no id, so there is no Last-Event-ID to resume from");
        const k = Math.floor((events.length - 1) / 2);
        const headers = { 'Last-Event-ID': events[k]!.id };
        const resumed = await send(context, STREAM, { ...logOf(context.resources), headers });
        const [first] = await eventsOf(context, resumed);
        const next = events[k + 1]!;
        if (first?.id !== next.id || first.data !== next.data) {
          const at = first ? events.findIndex((e) => e.id === first.id) : -1;
          const got = first ? `id ${first.id}${at >= 0 ? ` (event ${at + 1})` : ''}` : 'no event';
          const after = `first event after Last-Event-ID: ${events[k]!.id} (event ${k + 1} of ${events.length})`;
          throw new Broken([`${after}: expected id ${next.id} (event ${k + 2}), got ${got}`], resumed);
        }
      },
    },
    wrongTokenRule([BROWSER, LOG], logOf),
  ],
};

/** The seed's rules by operation. An operation the document does not have is not planned. */
export const SEED_PLANS: Readonly<Record<string, SeedPlan>> = {
  [LOGIN]: LOGIN_PLAN,
  [RENAME]: RENAME_PLAN,
  [STREAM]: STREAM_PLAN,
};
