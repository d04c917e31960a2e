import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { completeFlow } from '../domain/login.js';
import { ApiError, conflict, notFound } from '@browser-cloud/request-checker';
import { zodProblems } from '../fixture/fixture-schema.js';
import { invalidPart, isRefusal, parseJson } from '@browser-cloud/request-checker';
import { LogSource, stampLines } from '../state/log-source.js';
import { flowStatus, type LoginFlow, logSourceKey, type SandboxState } from '../state/store.js';

/** Prefix of the sandbox's own endpoints: outside every path of the API. */
export const SANDBOX_PREFIX = '/_sandbox';

const line = z.strictObject({ message: z.string(), timestamp: z.iso.datetime({ offset: true }).optional() });
const lines = z.array(z.union([z.string(), line])).max(10_000);
const APPEND = z.discriminatedUnion('source', [
  z.strictObject({ source: z.literal('path'), path: z.string().min(1), lines }),
  z.strictObject({ source: z.literal('supervisor'), supervisor_process: z.string().min(1), lines }),
]);

/** The inspection and control endpoints. No token: the sandbox listens on loopback only. */
export function registerSandboxRoutes(app: FastifyInstance, state: SandboxState): void {
  const now = (): number => state.settings.now();
  const id = (request: FastifyRequest) => (request.params as { id: string }).id;
  /** The latest flow whose connection id (or flow id, for the pages behind its urls) the path names. */
  const flowOf = (request: FastifyRequest, key: 'connection_id' | 'flow_id' = 'connection_id'): LoginFlow => {
    const flow = [...state.flows.values()].find((f) => f[key] === id(request));
    if (flow === undefined) throw notFound(`no login flow has the ${key} ${id(request)}`);
    return flow;
  };
  const complete = (flow: LoginFlow): LoginFlow => {
    if (flowStatus(flow, now()) !== 'in_progress') throw conflict(`the login flow ${flow.flow_id} is not in progress`);
    completeFlow(state, flow);
    return flow;
  };
  const view = (flow: LoginFlow) => ({ ...flow, status: flowStatus(flow, now()) });
  const flows = () => [...state.flows.values()].map(view);

  app.get(`${SANDBOX_PREFIX}/flows`, async () => ({ flows: flows() }));
  app.get(`${SANDBOX_PREFIX}/flows/:id`, async (request) => view(flowOf(request)));
  app.post(`${SANDBOX_PREFIX}/flows/:id/complete`, async (request) => view(complete(flowOf(request))));
  app.post(`${SANDBOX_PREFIX}/flows/:id/expire`, async (request) => {
    const flow = flowOf(request);
    if (flowStatus(flow, now()) === 'in_progress') flow.flow_expires_at = new Date(now()).toISOString();
    return view(flow);
  });

  // Its own body limit: load scripts append in large batches; the API's limit stays small.
  app.post(`${SANDBOX_PREFIX}/browsers/:id/logs`, { bodyLimit: 16 * 1024 * 1024 }, async (request) => {
    const browser = state.byId(state.keyOf('browsers'), id(request));
    if (browser === undefined) throw notFound(`browser ${id(request)} not found`);
    browser.seed.logs ??= new Map();
    const logs = browser.seed.logs;
    const parsed = parseJson(Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '');
    if (isRefusal(parsed)) throw new ApiError(parsed);
    const checked = APPEND.safeParse(parsed.value);
    if (!checked.success) throw new ApiError(invalidPart('body', zodProblems(checked.error, 'body')));
    const body = checked.data;
    const name = body.source === 'path' ? body.path : body.supervisor_process;
    const key = logSourceKey(body.source, name);
    // Appending to a source that does not exist yet creates it, like a new log file.
    const source = logs.get(key) ?? new LogSource();
    logs.set(key, source);
    const { firstId, lastId } = source.append(stampLines(body.lines, now()));
    return {
      browser_id: browser.id,
      source: body.source,
      name,
      first_id: firstId,
      last_id: lastId,
      length: source.lines.length,
    };
  });

  app.get(`${SANDBOX_PREFIX}/state`, async () => ({
    flows: flows(),
    // Every item of every resource as the API shows it, with its project.
    resources: Object.fromEntries(
      state
        .keys()
        .map((key) => [
          key,
          [...state.items(key).values()].map((item) => ({ ...item.value, project_id: item.logicalProjectId })),
        ]),
    ),
    browsers: [...state.items(state.keyOf('browsers')).values()].map((b) => ({
      id: b.id,
      logs: [...(b.seed.logs ?? [])].map(([key, s]) => {
        const [source, name] = key.split('\u0000');
        return { source, name, length: s.lines.length, followers: s.listenerCount('change') };
      }),
    })),
  }));

  app.post(`${SANDBOX_PREFIX}/reset`, async () => {
    state.reset();
    return { reset: true };
  });

  // The pages behind hosted_url and live_view_url, so that a person (or a browser test) can
  // follow a flow to its end. The sandbox has no real browser to show.
  for (const page of ['hosted', 'live']) {
    app.get(`${SANDBOX_PREFIX}/${page}/:id`, async (request, reply) => {
      const flow = flowOf(request, 'flow_id');
      const status = flowStatus(flow, now());
      const action = `${SANDBOX_PREFIX}/hosted/${encodeURIComponent(flow.flow_id)}/complete`;
      const text = `Flow ${flow.flow_id} (${flow.flow_type}) is ${status}.`;
      const form = `<form method="post" action="${action}"><button>Complete login</button></form>`;
      const offer = page === 'hosted' && status === 'in_progress';
      return html(reply, `Sandbox ${page}: ${flow.connection_id}`, text, offer ? form : '');
    });
  }
  app.post(`${SANDBOX_PREFIX}/hosted/:id/complete`, async (request, reply) => {
    const flow = complete(flowOf(request, 'flow_id'));
    return html(reply, 'Sandbox login complete', `Flow ${flow.flow_id} is complete.`);
  });
}

function html(reply: FastifyReply, title: string, text: string, form = ''): string {
  const escaped = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  reply.type('text/html; charset=utf-8');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escaped(title)}</title></head><body><h1>${escaped(title)}</h1><p>${escaped(text)}</p>${form}</body></html>`;
}
