/**
 * Stateful sequences on the sandbox: fast-check runs random sequences of logins, completed and
 * expired flows, renames and followed streams, and checks every answer against a model of the
 * spec's rules: 409 while a flow is in progress, REAUTH once credentials are stored, names unique
 * within the logical project (unscoped and default-project profiles count as one), ambiguous proxy
 * names refused with 400, and `follow` delivering appended lines once each, in order, across
 * dropped connections. Needs the sandbox's control endpoints, so it runs on the sandbox target only.
 */
import { createClient } from '@browser-cloud/client';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { cuttingFetch } from './harness/cut-connections.js';
import { document, documentValidator } from './harness/target.js';
import { flowTypesOf } from '@browser-cloud/sandbox';

const FLOW = flowTypesOf(document);
import { findOperation } from '@browser-cloud/openapi-document';
import { contractSeeds } from '../scripts/seeds.mjs';
import { target } from './harness/target.js';

const sandbox = target.sandbox;
const R = sandbox?.refs;

const runs = Math.max(5, Math.ceil(Number(process.env.CONTRACT_RUNS ?? 20) / 2));

interface Model {
  inProgress: Set<string>;
  credentials: Set<string>;
  /** Profile id → name, for the profiles of the logical project the owner token sees. */
  names: Map<string, string | null>;
  lines: string[];
}
interface Real {
  url: string;
}

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandbox!.directUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${target.token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** The answer of an operation must also match the document, whatever the model expects. */
function conforms(operationId: string, answer: { status: number; body: unknown }) {
  expect(
    documentValidator.validateResponse(
      findOperation(document, operationId),
      answer.status,
      'application/json',
      answer.body,
    ),
  ).toEqual([]);
}

class Login implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly connection: string,
    readonly proxy: { name: string } | undefined,
    readonly ambiguous: boolean,
  ) {}
  check = () => true;
  async run(model: Model) {
    const answer = await call(
      'POST',
      `/auth/connections/${this.connection}/login`,
      this.proxy ? { proxy: this.proxy } : {},
    );
    conforms('loginAuthConnection', answer);
    const busy = model.inProgress.has(this.connection);
    if (busy && this.ambiguous) {
      // Both rules apply; the spec does not order them.
      expect([400, 409]).toContain(answer.status);
      return;
    }
    if (busy) {
      expect(answer.status, 'a login while a flow is in progress').toBe(409);
      return;
    }
    if (this.ambiguous) {
      expect(answer.status, 'an ambiguous proxy name').toBe(400);
      expect(answer.body.details.map((d: { code: string }) => d.code)).toContain('invalid_input');
      return;
    }
    expect(answer.status).toBe(200);
    expect(answer.body.flow_type).toBe(model.credentials.has(this.connection) ? FLOW.reauth : FLOW.login);
    model.inProgress.add(this.connection);
  }
  toString = () => `login(${this.connection}${this.proxy ? `, proxy ${this.proxy.name}` : ''})`;
}

class EndFlow implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly connection: string,
    readonly how: 'complete' | 'expire',
  ) {}
  check = (model: Readonly<Model>) => this.how === 'complete' || model.inProgress.has(this.connection);
  async run(model: Model) {
    const response = await fetch(`${sandbox!.directUrl}/_sandbox/flows/${this.connection}/${this.how}`, {
      method: 'POST',
    });
    await response.body?.cancel();
    if (!model.inProgress.has(this.connection)) {
      // The control endpoint's own refusal: 404 before any flow, 409 after one ended.
      expect([404, 409], 'completing a flow that is not in progress').toContain(response.status);
      return;
    }
    expect(response.status).toBe(200);
    model.inProgress.delete(this.connection);
    // A completed login stores the credentials: the next login is a REAUTH.
    if (this.how === 'complete') model.credentials.add(this.connection);
  }
  toString = () => `${this.how}(${this.connection})`;
}

class Rename implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly profile: string,
    readonly name: string,
  ) {}
  check = () => true;
  async run(model: Model) {
    const answer = await call('PATCH', `/profiles/${this.profile}`, { name: this.name });
    conforms('renameProfile', answer);
    const taken = [...model.names].some(([id, name]) => id !== this.profile && name === this.name);
    if (taken) {
      expect(answer.status, `"${this.name}" is taken in the logical project`).toBe(409);
      return;
    }
    expect(answer.status).toBe(200);
    expect(answer.body.name).toBe(this.name);
    model.names.set(this.profile, this.name);
  }
  toString = () => `rename(${this.profile}, ${JSON.stringify(this.name)})`;
}

class AppendAndFollow implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly before: string[],
    readonly during: string[],
    readonly cutAfter: number,
  ) {}
  check = () => true;
  async run(model: Model) {
    const { id, path } = R!.browsers.quiet;
    const append = async (lines: string[]) => {
      if (lines.length === 0) return;
      const response = await fetch(`${sandbox!.directUrl}/_sandbox/browsers/${id}/logs`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ source: 'path', path, lines }),
      });
      expect(response.status).toBe(200);
      await response.body?.cancel();
      model.lines.push(...lines);
    };
    await append(this.before);
    // With nothing to read yet there is no moment "while following" to append at: append now.
    if (model.lines.length === 0) await append(this.during);
    let during = model.lines.length === this.before.length + this.during.length ? [] : this.during;
    const cutting = cuttingFetch({ events: this.cutAfter, connections: 2 });
    const client = createClient({
      baseUrl: sandbox!.directUrl,
      token: target.token,
      fetch: cutting.fetch,
      maxRetries: 3,
    });
    const expected = model.lines.length + during.length;
    if (expected === 0) return;
    // A stream that stops delivering fails the case instead of hanging it.
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, AbortSignal.timeout(15_000)]);
    const messages: string[] = [];
    const stream = client.browsers.logs.stream(id, { source: 'path', path, follow: true }, { signal });
    try {
      for await (const event of stream) {
        messages.push(event.message);
        if (messages.length === model.lines.length && during.length > 0) {
          await append(during);
          during = [];
        }
        if (messages.length >= expected) break;
      }
    } catch (error) {
      throw new Error(`follow stopped after ${messages.length} of ${expected} lines: ${String(error)}`);
    } finally {
      controller.abort();
    }
    expect(
      messages,
      `follow across dropped connections (Last-Event-IDs ${JSON.stringify(cutting.lastEventIds)})`,
    ).toEqual(model.lines);
    // A connection is cut once it has passed cutAfter events and the next one begins: with more
    // lines than that, the stream must have reconnected, and each reconnect resumed from the last
    // event it delivered.
    const reconnects = cutting.lastEventIds.slice(1);
    expect(reconnects.length > 0, `reconnected (Last-Event-IDs ${JSON.stringify(cutting.lastEventIds)})`).toBe(
      expected > this.cutAfter,
    );
    expect(cutting.lastEventIds[0]).toBeNull();
    for (const id of reconnects) expect(id).toMatch(/^[0-9a-z]+-\d+$/);
  }
  toString = () =>
    `appendAndFollow(${JSON.stringify(this.before)}, then ${JSON.stringify(this.during)}, cut after ${this.cutAfter})`;
}

describe.skipIf(!sandbox)('stateful sequences (sandbox)', () => {
  // Each sequence starts from a reset; the last one's renames and flows must not reach the files
  // that run after this one on the same sandbox.
  afterAll(async () => {
    const reset = await fetch(`${sandbox!.directUrl}/_sandbox/reset`, { method: 'POST' });
    expect(reset.status).toBe(200);
    await reset.body?.cancel();
  });
  it.each(contractSeeds())(
    `keep the spec's rules over login, flows, rename and follow (${runs} sequences, seed %i)`,
    async (seed) => {
      const connections = [
        R!.authConnections.withCredentials,
        R!.authConnections.withoutCredentials,
        R!.authConnections.telemetryOff,
      ];
      const profiles = [R!.profiles.defaultProject.id, R!.profiles.unscoped.id, R!.profiles.unnamed.id];
      const names = [R!.profiles.defaultProject.name, R!.profiles.unscoped.name, 'agent-a', 'agent-b'];
      const line = fc.stringMatching(/^[a-z0-9 ]{1,12}$/);
      const commands = [
        fc
          .tuple(fc.constantFrom(...connections), fc.constantFrom('none', 'unique', 'ambiguous'))
          .map(
            ([c, proxy]) =>
              new Login(
                c,
                proxy === 'none'
                  ? undefined
                  : { name: proxy === 'unique' ? R!.proxies.datacenter.name : R!.proxies.ambiguousName },
                proxy === 'ambiguous',
              ),
          ),
        fc
          .tuple(fc.constantFrom(...connections), fc.constantFrom('complete' as const, 'expire' as const))
          .map(([c, how]) => new EndFlow(c, how)),
        fc.tuple(fc.constantFrom(...profiles), fc.constantFrom(...names)).map(([p, n]) => new Rename(p, n)),
        fc
          .tuple(fc.array(line, { maxLength: 3 }), fc.array(line, { maxLength: 3 }), fc.integer({ min: 1, max: 2 }))
          .map(([before, during, cutAfter]) => new AppendAndFollow(before, during, cutAfter)),
      ];
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 12 }), async (sequence) => {
          const reset = await fetch(`${sandbox!.directUrl}/_sandbox/reset`, { method: 'POST' });
          expect(reset.status).toBe(200);
          await reset.body?.cancel();
          const model: Model = {
            inProgress: new Set(),
            credentials: new Set([R!.authConnections.withCredentials]),
            names: new Map<string, string | null>([
              [R!.profiles.defaultProject.id, R!.profiles.defaultProject.name],
              [R!.profiles.unscoped.id, R!.profiles.unscoped.name],
              [R!.profiles.unnamed.id, null],
            ]),
            lines: [],
          };
          await fc.asyncModelRun(() => ({ model, real: { url: sandbox!.directUrl } }), sequence);
        }),
        { seed, numRuns: runs },
      );
    },
    120_000,
  );
});
