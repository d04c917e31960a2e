import { toIssues } from '@browser-cloud/api-types';
import { createAjv } from '@browser-cloud/openapi-document';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { completeFlow } from '../domain/login.js';
import { profileBody } from '../domain/rename.js';
import { conflict, notFound, refused } from '../http/api-error.js';
import { invalidPart, isRefusal, parseJson } from '../request-checker.js';
import { LogSource, type LogLine } from '../state/log-source.js';
import type { SandboxState } from '../state/sandbox-state.js';
import { flowStatus, logSourceKey, type LoginFlow } from '../state/store.js';

/** Prefix of the sandbox's own endpoints: outside every path of the API. */
export const SANDBOX_PREFIX = '/_sandbox';

const line = {
  anyOf: [
    { type: 'string' },
    {
      type: 'object',
      properties: { message: { type: 'string' }, timestamp: { type: 'string', format: 'date-time' } },
      required: ['message'],
      additionalProperties: false,
    },
  ],
};
const validateAppend = createAjv().compile<AppendBody>({
  type: 'object',
  properties: {
    source: { enum: ['path', 'supervisor'] },
    path: { type: 'string', minLength: 1 },
    supervisor_process: { type: 'string', minLength: 1 },
    lines: { type: 'array', items: line, maxItems: 10_000 },
  },
  required: ['source', 'lines'],
  additionalProperties: false,
  allOf: [
    { if: { properties: { source: { const: 'path' } } }, then: { required: ['path'] } },
    { if: { properties: { source: { const: 'supervisor' } } }, then: { required: ['supervisor_process'] } },
  ],
});

interface AppendBody {
  source: 'path' | 'supervisor';
  path?: string;
  supervisor_process?: string;
  lines: Array<string | { message: string; timestamp?: string }>;
}

/** The body of an append, as JSON that keeps `validateAppend`'s rules. @throws ApiError 400 naming the field. */
function appendBody(raw: unknown): AppendBody {
  const parsed = parseJson(Buffer.isBuffer(raw) ? raw.toString('utf8') : '');
  if (isRefusal(parsed)) throw refused(parsed);
  if (validateAppend(parsed.value)) return parsed.value;
  const issues = toIssues(validateAppend.errors ?? [], parsed.value, 'body', { prefixFields: false });
  throw refused(
    invalidPart(
      'body',
      issues.map((issue) => issue.message),
    ),
  );
}

/**
 * The sandbox's inspection and control endpoints, under `/_sandbox`. They take no token: the
 * sandbox listens on loopback only, and tests drive them directly.
 */
export function registerSandboxRoutes(app: FastifyInstance, state: SandboxState): void {
  const now = (): number => state.settings.now();
  const flowOf = (request: FastifyRequest): LoginFlow => {
    const { id } = request.params as { id: string };
    const flow = state.store.flow(id);
    if (flow === undefined) throw notFound(`no login flow was started for auth connection ${id}`);
    return flow;
  };
  const complete = (flow: LoginFlow): void => {
    if (flowStatus(flow, now()) !== 'in_progress') throw conflict(`the login flow ${flow.flowId} is not in progress`);
    completeFlow(flow, state.store, now());
  };
  const flowById = (request: FastifyRequest): LoginFlow => {
    const { id } = request.params as { id: string };
    const flow = state.store.flows().find((f) => f.flowId === id);
    if (flow === undefined) throw notFound(`login flow ${id} not found`);
    return flow;
  };

  app.get(`${SANDBOX_PREFIX}/flows`, async () => ({ flows: state.store.flows().map((f) => flowView(f, now())) }));

  app.get(`${SANDBOX_PREFIX}/flows/:id`, async (request) => flowView(flowOf(request), now()));

  app.post(`${SANDBOX_PREFIX}/flows/:id/complete`, async (request) => {
    const flow = flowOf(request);
    complete(flow);
    return flowView(flow, now());
  });

  app.post(`${SANDBOX_PREFIX}/flows/:id/expire`, async (request) => {
    const flow = flowOf(request);
    if (flowStatus(flow, now()) === 'in_progress') flow.expiresAt = now();
    return flowView(flow, now());
  });

  // Its own body limit: load scripts append in large batches; the API's limit stays small.
  app.post(`${SANDBOX_PREFIX}/browsers/:id/logs`, { bodyLimit: 16 * 1024 * 1024 }, async (request) => {
    const { id } = request.params as { id: string };
    const browser = state.store.byId('browsers', id);
    if (browser === undefined) throw notFound(`browser ${id} not found`);
    const body = appendBody(request.body);
    // Named: validateAppend requires the name of the source it says.
    const name = (body.source === 'path' ? body.path : body.supervisor_process) as string;
    const key = logSourceKey(body.source, name);
    let source = browser.logs.get(key);
    // Appending to a source that does not exist yet creates it, like a new log file.
    if (source === undefined) {
      source = new LogSource();
      browser.logs.set(key, source);
    }
    const at = new Date(now()).toISOString();
    const lines: LogLine[] = body.lines.map((l) =>
      typeof l === 'string' ? { timestamp: at, message: l } : { timestamp: l.timestamp ?? at, message: l.message },
    );
    const { firstId, lastId } = source.append(lines);
    return { browser_id: id, source: body.source, name, first_id: firstId, last_id: lastId, length: source.length };
  });

  app.get(`${SANDBOX_PREFIX}/state`, async () => ({
    flows: state.store.flows().map((f) => flowView(f, now())),
    profiles: state.store.all('profiles').map((p) => ({ ...profileBody(p), project_id: p.logicalProjectId })),
    browsers: state.store.all('browsers').map((b) => ({
      id: b.id,
      logs: [...b.logs.entries()].map(([key, s]) => {
        const [source, name] = key.split('\u0000');
        return { source, name, length: s.length, followers: s.followers };
      }),
    })),
  }));

  app.post(`${SANDBOX_PREFIX}/reset`, async () => {
    state.reset();
    return { reset: true };
  });

  // The pages behind hosted_url and live_view_url, so that a person (or a browser test) can
  // follow a flow to its end.
  app.get(`${SANDBOX_PREFIX}/hosted/:id`, async (request, reply) => {
    const flow = flowById(request);
    const status = flowStatus(flow, now());
    return html(
      reply,
      `Sandbox login: ${flow.connectionId}`,
      `<p>Flow <code>${escapeHtml(flow.flowId)}</code> (${flow.flowType}) is <strong>${status}</strong>.</p>` +
        (status === 'in_progress'
          ? `<form method="post" action="${SANDBOX_PREFIX}/hosted/${encodeURIComponent(flow.flowId)}/complete"><button>Complete login</button></form>`
          : ''),
    );
  });

  app.post(`${SANDBOX_PREFIX}/hosted/:id/complete`, async (request, reply) => {
    const flow = flowById(request);
    complete(flow);
    return html(reply, 'Sandbox login complete', `<p>Flow <code>${escapeHtml(flow.flowId)}</code> is complete.</p>`);
  });

  app.get(`${SANDBOX_PREFIX}/live/:id`, async (request, reply) => {
    const flow = flowById(request);
    return html(
      reply,
      `Live view: ${flow.connectionId}`,
      `<p>The sandbox has no real browser. Flow <code>${escapeHtml(flow.flowId)}</code> is ${flowStatus(flow, now())}.</p>`,
    );
  });
}

/** A flow as the inspection endpoints show it (snake_case, like the API). */
export function flowView(flow: LoginFlow, now: number): Record<string, unknown> {
  const { telemetry } = flow;
  return {
    connection_id: flow.connectionId,
    flow_id: flow.flowId,
    flow_type: flow.flowType,
    status: flowStatus(flow, now),
    hosted_url: flow.hostedUrl,
    live_view_url: flow.liveViewUrl,
    ...(flow.handoffCode === undefined ? {} : { handoff_code: flow.handoffCode }),
    started_at: new Date(flow.startedAt).toISOString(),
    flow_expires_at: new Date(flow.expiresAt).toISOString(),
    ...(flow.completedAt === undefined ? {} : { completed_at: new Date(flow.completedAt).toISOString() }),
    started_by: flow.startedBy,
    record_session: flow.recordSession,
    proxy: flow.proxy,
    browser_telemetry: {
      // Absent when the login request omitted browser_telemetry; null when it sent null.
      ...(telemetry.requested === undefined ? {} : { requested: telemetry.requested }),
      connection_default: telemetry.connectionDefault,
      applied: telemetry.applied,
      categories: telemetry.categories,
    },
  };
}

function html(reply: FastifyReply, title: string, body: string): string {
  reply.type('text/html; charset=utf-8');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
