import type { BrowserTelemetryRequestConfig, FlowType, TelemetryCategory } from '@browser-cloud/api-types';
import type {
  FixtureLogLine,
  FixtureOrganization,
  FixtureScope,
  SandboxFixture,
  TokenRole,
} from '../fixture/fixture-schema.js';
import { badRequest, notFound } from '../http/api-error.js';
import { LogSource, type LogLine } from './log-source.js';

/** The caller behind a bearer token. */
export interface Caller {
  tokenName: string;
  role: TokenRole;
  organization: FixtureOrganization;
  /** The project the token acts in, once unscoped keys are mapped onto the default project. */
  logicalProjectId: string | null;
}

/** A stored resource: where it lives, resolved like a caller's. */
interface Stored {
  id: string;
  organizationId: string;
  logicalProjectId: string | null;
}

export interface AuthConnection extends Stored {
  hasStoredCredentials: boolean;
  recordSession: boolean;
  browserTelemetry: BrowserTelemetryRequestConfig | null;
}

export interface Proxy extends Stored {
  name: string;
  active: boolean;
}

export interface Profile extends Stored {
  name: string | null;
  createdAt: string;
  updatedAt?: string | undefined;
  lastUsedAt?: string | undefined;
}

export interface Browser extends Stored {
  /** Keyed by `logSourceKey`. */
  logs: Map<string, LogSource>;
}

/**
 * The collections the sandbox stores, by the path segment that names them in the document
 * (`/profiles/{id_or_name}`, `/auth/connections/{id}`): the operations model gives each path
 * parameter its collection, which is how an operation finds what it acts on.
 */
export interface Collections {
  profiles: Profile;
  connections: AuthConnection;
  proxies: Proxy;
  browsers: Browser;
}
export type Collection = keyof Collections;

const COLLECTIONS: ReadonlySet<string> = new Set<Collection>(['profiles', 'connections', 'proxies', 'browsers']);

/** Whether a path parameter's collection is one the sandbox stores. */
export function isCollection(name: string | undefined): name is Collection {
  return name !== undefined && COLLECTIONS.has(name);
}

/** A login flow as the sandbox keeps it; the inspection endpoint shows it. */
export interface LoginFlow {
  flowId: string;
  connectionId: string;
  flowType: FlowType;
  hostedUrl: string;
  liveViewUrl: string;
  handoffCode?: string;
  startedAt: number;
  expiresAt: number;
  completedAt?: number;
  startedBy: string;
  recordSession: boolean;
  proxy: { id: string; name: string } | null;
  telemetry: {
    /** What the login request said (`undefined`: omitted). */
    requested: BrowserTelemetryRequestConfig | null | undefined;
    /** The connection's default at the time. */
    connectionDefault: BrowserTelemetryRequestConfig | null;
    /** The configuration that applied: the request's, or the connection's default. */
    applied: BrowserTelemetryRequestConfig | null;
    /** The categories that will be captured (empty: no capture). */
    categories: TelemetryCategory[];
  };
}

export type FlowStatus = 'in_progress' | 'completed' | 'expired';

/** The key of a log source within a browser. */
export function logSourceKey(source: 'path' | 'supervisor', name: string): string {
  return `${source}\u0000${name}`;
}

/**
 * The sandbox's whole in-memory state, built from a fixture. Every lookup that takes the caller
 * sees only the caller's logical project, so that a resource of another project (or
 * organisation) is simply not found.
 */
export class SandboxStore {
  readonly #tokens = new Map<string, Caller>();
  readonly #collections: { [C in Collection]: Map<string, Collections[C]> } = {
    profiles: new Map(),
    connections: new Map(),
    proxies: new Map(),
    browsers: new Map(),
  };
  readonly #flows = new Map<string, LoginFlow>();

  constructor(fixture: SandboxFixture, now: number = Date.now()) {
    const organizations = new Map(fixture.organizations.map((o) => [o.id, o]));
    const projectOrg = new Map(fixture.projects.map((p) => [p.id, p.organizationId]));
    const scope = (s: FixtureScope & { id: string }): Stored => {
      const organization = organizations.get(
        (s.projectId === null ? s.organizationId : projectOrg.get(s.projectId)) ?? '',
      );
      if (organization === undefined) throw new Error('fixture scope does not resolve; check the fixture first');
      return {
        id: s.id,
        organizationId: organization.id,
        logicalProjectId: s.projectId ?? organization.defaultProjectId,
      };
    };
    for (const t of fixture.tokens) {
      const { organizationId, logicalProjectId } = scope({ ...t, id: t.name });
      const organization = organizations.get(organizationId) as FixtureOrganization;
      this.#tokens.set(t.token, { tokenName: t.name, role: t.role, organization, logicalProjectId });
    }
    const { profiles, connections, proxies, browsers } = this.#collections;
    for (const c of fixture.authConnections) {
      const { hasStoredCredentials, recordSession, browserTelemetry = null } = c;
      const telemetry = structuredClone(browserTelemetry);
      connections.set(c.id, { ...scope(c), hasStoredCredentials, recordSession, browserTelemetry: telemetry });
    }
    for (const p of fixture.proxies) proxies.set(p.id, { ...scope(p), name: p.name, active: p.active });
    for (const p of fixture.profiles) profiles.set(p.id, { ...p, ...scope(p) });
    for (const b of fixture.browsers) {
      const logs = new Map<string, LogSource>();
      for (const l of b.logs) {
        const key =
          l.source === 'path' ? logSourceKey('path', l.path) : logSourceKey('supervisor', l.supervisorProcess);
        logs.set(
          key,
          new LogSource(
            l.lines.map((line, i) => toLogLine(line, now + i)),
            l.epoch,
          ),
        );
      }
      browsers.set(b.id, { ...scope(b), logs });
    }
  }

  /** The caller behind a token, or undefined for an unknown token. */
  authenticate(token: string): Caller | undefined {
    return this.#tokens.get(token);
  }

  /** A resource by id, if the caller's project holds it. */
  get<C extends Collection>(collection: C, caller: Caller, id: string): Collections[C] | undefined {
    return visible(caller, this.#collections[collection].get(id));
  }

  /** A resource by id regardless of the caller: for the sandbox's own endpoints. */
  byId<C extends Collection>(collection: C, id: string): Collections[C] | undefined {
    return this.#collections[collection].get(id);
  }

  /** Every resource of a collection, whatever its project. */
  all<C extends Collection>(collection: C): Collections[C][] {
    return [...this.#collections[collection].values()];
  }

  /** Resources of the caller's project with exactly this name. */
  named<C extends Collection>(collection: C, caller: Caller, name: string): Collections[C][] {
    return this.all(collection).filter((r) => 'name' in r && r.name === name && visible(caller, r) !== undefined);
  }

  /**
   * The one resource of the caller's project whose id, or else whose name, is `idOrName`.
   * @throws ApiError 404 when there is none, 400 naming `field` when the name matches several
   *   (best-effort unique names can leave duplicates).
   */
  find<C extends Collection>(collection: C, caller: Caller, idOrName: string, field: string): Collections[C] {
    const byId = this.get(collection, caller, idOrName);
    if (byId !== undefined) return byId;
    const [first, ...others] = this.named(collection, caller, idOrName);
    if (first === undefined) throw notFound(`${idOrName} not found in ${collection}`);
    if (others.length > 0) {
      throw badRequest(`"${idOrName}" names ${others.length + 1} ${collection}; use the id`, [[field, 'ambiguous']]);
    }
    return first;
  }

  /** Removes a resource; a browser's open log streams end. */
  delete(collection: Collection, id: string): void {
    const browser = collection === 'browsers' ? this.#collections.browsers.get(id) : undefined;
    for (const source of browser?.logs.values() ?? []) source.end();
    this.#collections[collection].delete(id);
    if (collection === 'connections') this.#flows.delete(id);
  }

  /** The latest flow of a connection, if any was started. */
  flow(connectionId: string): LoginFlow | undefined {
    return this.#flows.get(connectionId);
  }

  setFlow(flow: LoginFlow): void {
    this.#flows.set(flow.connectionId, flow);
  }

  flows(): LoginFlow[] {
    return [...this.#flows.values()];
  }

  /** Ends every follower of every log source: the state is being discarded. */
  dispose(): void {
    for (const b of this.#collections.browsers.values()) for (const s of b.logs.values()) s.end();
  }
}

/** The status of a flow at `now`. */
export function flowStatus(flow: LoginFlow, now: number): FlowStatus {
  if (flow.completedAt !== undefined) return 'completed';
  return now < flow.expiresAt ? 'in_progress' : 'expired';
}

function visible<T extends Stored>(caller: Caller, resource: T | undefined): T | undefined {
  if (resource?.organizationId !== caller.organization.id) return undefined;
  return resource.logicalProjectId === caller.logicalProjectId ? resource : undefined;
}

function toLogLine(line: FixtureLogLine, at: number): LogLine {
  return typeof line === 'string' ? { timestamp: new Date(at).toISOString(), message: line } : { ...line };
}
