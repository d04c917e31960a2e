import type { BrowserTelemetryRequestConfig, TelemetryCategory } from '@browser-cloud/api-types';
import type { LoginAnswer } from '../domain/login.js';
import type { FixtureOrganization, FixtureScope, SandboxFixture, TokenRole } from '../fixture/fixture-schema.js';
import { badRequest, notFound } from '@browser-cloud/request-checker';
import type { FlowTypes } from '../openapi/sandbox-document.js';
import type { StartSandboxOptions } from '../start-sandbox.js';
import { LogSource, stampLines } from './log-source.js';

/** The knobs of a running sandbox (see `StartSandboxOptions`). */
export type SandboxSettings = Required<Pick<StartSandboxOptions, 'flowTtlMs' | 'keepAliveMs' | 'retryMs' | 'now'>> & {
  /** The sandbox's own base URL, for `hosted_url` and `live_view_url`. */
  publicUrl: () => string;
  /** The document's flow types, which logins answer with. */
  flowTypes: FlowTypes;
};

/** Where a token acts or a resource lives: unscoped keys and resources count in the organisation's default project. */
interface Scope {
  organization: FixtureOrganization;
  logicalProjectId: string | null;
}

export interface Caller extends Scope {
  tokenName: string;
  role: TokenRole;
}

type Scoped<T, Without extends string = never> = Omit<T, 'projectId' | 'organizationId' | Without> & Scope;

export type AuthConnection = Scoped<SandboxFixture['authConnections'][number], 'browserTelemetry'> & {
  browserTelemetry: BrowserTelemetryRequestConfig | null;
};
export type Proxy = Scoped<SandboxFixture['proxies'][number]>;
export type Profile = Scoped<SandboxFixture['profiles'][number]>;
/** Its log sources, keyed by `logSourceKey`. */
export type Browser = Scoped<SandboxFixture['browsers'][number], 'logs'> & { logs: Map<string, LogSource> };

/** The collections the sandbox stores, by the path segment the operations model names a path parameter's. */
export interface Collections {
  profiles: Profile;
  connections: AuthConnection;
  proxies: Proxy;
  browsers: Browser;
}
export type Collection = keyof Collections;
const COLLECTIONS: Collection[] = ['profiles', 'connections', 'proxies', 'browsers'];
export const isCollection = (name: string | undefined): name is Collection => COLLECTIONS.includes(name as Collection);

/** A login flow, as `/_sandbox/flows` shows it (the README's table) but for its status, which depends on the time. */
export type LoginFlow = Omit<LoginAnswer, 'id'> & {
  connection_id: string;
  flow_id: string;
  started_at: string;
  completed_at?: string;
  /** The token's name, never its value. */
  started_by: string;
  record_session: boolean;
  proxy: { id: string; name: string } | null;
  browser_telemetry: {
    requested?: BrowserTelemetryRequestConfig | null;
    connection_default: BrowserTelemetryRequestConfig | null;
    applied: BrowserTelemetryRequestConfig | null;
    categories: TelemetryCategory[];
  };
};

export function flowStatus(flow: LoginFlow, now: number): 'in_progress' | 'completed' | 'expired' {
  if (flow.completed_at !== undefined) return 'completed';
  return now < Date.parse(flow.flow_expires_at) ? 'in_progress' : 'expired';
}

/** The key of a log source within a browser. */
export const logSourceKey = (source: string, name: string): string => `${source}\u0000${name}`;

/**
 * The sandbox's in-memory state, built from a fixture, and its knobs. A lookup that takes the
 * caller sees only the caller's logical project: another project's resource is not found.
 */
export class SandboxState {
  /** The caller behind each token. */
  readonly tokens = new Map<string, Caller>();
  readonly #collections = Object.fromEntries(COLLECTIONS.map((name) => [name, new Map()])) as {
    [C in Collection]: Map<string, Collections[C]>;
  };
  /** The latest flow of each auth connection. */
  readonly flows = new Map<string, LoginFlow>();

  constructor(
    readonly fixture: SandboxFixture,
    readonly settings: SandboxSettings,
  ) {
    this.reset();
  }

  /** Back to the fixture: flows, renames, deletions and appended lines are gone; open streams end. */
  reset(): void {
    this.dispose();
    const { fixture } = this;
    const now = this.settings.now();
    for (const map of [this.tokens, this.flows, ...Object.values(this.#collections)]) map.clear();
    const organizations = new Map(fixture.organizations.map((o) => [o.id, o]));
    const projectOrg = new Map(fixture.projects.map((p) => [p.id, p.organizationId]));
    // checkFixture made sure that every scope resolves.
    const scope = (s: FixtureScope): Scope => {
      const organization = organizations.get(s.projectId === null ? s.organizationId! : projectOrg.get(s.projectId)!)!;
      return { organization, logicalProjectId: s.projectId ?? organization.defaultProjectId };
    };
    for (const t of fixture.tokens) this.tokens.set(t.token, { tokenName: t.name, role: t.role, ...scope(t) });
    const { profiles, connections, proxies, browsers } = this.#collections;
    for (const c of fixture.authConnections) {
      connections.set(c.id, { ...c, ...scope(c), browserTelemetry: structuredClone(c.browserTelemetry ?? null) });
    }
    for (const p of fixture.proxies) proxies.set(p.id, { ...p, ...scope(p) });
    for (const p of fixture.profiles) profiles.set(p.id, { ...p, ...scope(p) });
    for (const b of fixture.browsers) {
      const logs = b.logs.map((l) => {
        const name = l.source === 'path' ? l.path : l.supervisorProcess;
        return [logSourceKey(l.source, name), new LogSource(stampLines(l.lines, now), l.epoch)] as const;
      });
      browsers.set(b.id, { id: b.id, ...scope(b), logs: new Map(logs) });
    }
  }

  /** A resource by id regardless of the caller: for the sandbox's own endpoints. */
  byId<C extends Collection>(collection: C, id: string): Collections[C] | undefined {
    return this.#collections[collection].get(id);
  }

  all<C extends Collection>(collection: C): Collections[C][] {
    return [...this.#collections[collection].values()];
  }

  named<C extends Collection>(collection: C, caller: Caller, name: string): Collections[C][] {
    return this.all(collection).filter((r) => 'name' in r && r.name === name && visible(caller, r));
  }

  /**
   * The one resource of the caller's project whose id, or else whose name, is `idOrName`.
   * @throws ApiError 404 for none, 400 naming `field` for several (names are unique best-effort).
   */
  find<C extends Collection>(collection: C, caller: Caller, idOrName: string, field: string): Collections[C] {
    const byId = this.byId(collection, idOrName);
    if (byId !== undefined && visible(caller, byId)) return byId;
    const [first, ...others] = this.named(collection, caller, idOrName);
    if (first === undefined) throw notFound(`${idOrName} not found in ${collection}`);
    if (others.length > 0) {
      throw badRequest(`"${idOrName}" names ${others.length + 1} ${collection}; use the id`, [[field, 'ambiguous']]);
    }
    return first;
  }

  /** Removes a resource; a browser's open log streams end, a connection's flow goes. */
  delete(collection: Collection, id: string): void {
    if (collection === 'browsers') for (const source of this.byId('browsers', id)?.logs.values() ?? []) source.end();
    this.#collections[collection].delete(id);
    if (collection === 'connections') this.flows.delete(id);
  }

  /** Ends every follower of every log source: the state is being discarded. */
  dispose(): void {
    for (const b of this.#collections.browsers.values()) for (const s of b.logs.values()) s.end();
  }
}

const visible = (caller: Caller, resource: Scope): boolean =>
  resource.organization === caller.organization && resource.logicalProjectId === caller.logicalProjectId;
