import type { BrowserTelemetryRequestConfig, FlowType, TelemetryCategory } from '@browser-cloud/api-types';
import type {
  FixtureLogLine,
  FixtureOrganization,
  FixtureScope,
  OperationId,
  SandboxFixture,
  TokenRole,
} from '../fixture/types.js';
import { LogSource, type LogLine } from './log-source.js';

/** The caller behind a bearer token. */
export interface Caller {
  tokenName: string;
  role: TokenRole;
  organization: FixtureOrganization;
  /** The project the token acts in, once unscoped keys are mapped onto the default project. */
  logicalProjectId: string | null;
}

/** Where a stored resource lives, resolved like a caller's. */
interface Scoped {
  organizationId: string;
  logicalProjectId: string | null;
}

export interface AuthConnection extends Scoped {
  id: string;
  hasStoredCredentials: boolean;
  recordSession: boolean;
  browserTelemetry: BrowserTelemetryRequestConfig | null;
}

export interface Proxy extends Scoped {
  id: string;
  name: string;
  active: boolean;
}

export interface Profile extends Scoped {
  id: string;
  name: string | null;
  createdAt: string;
  updatedAt?: string;
  lastUsedAt?: string;
}

export interface Browser extends Scoped {
  id: string;
  /** Keyed by `logSourceKey`. */
  logs: Map<string, LogSource>;
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

const TOKEN_OPERATIONS: Record<TokenRole, readonly OperationId[]> = {
  owner: ['loginAuthConnection', 'renameProfile', 'streamBrowserLogs'],
  member: ['loginAuthConnection', 'renameProfile', 'streamBrowserLogs'],
  readonly: ['streamBrowserLogs'],
};

/**
 * The sandbox's whole in-memory state, built from a fixture. Every lookup takes the caller, so
 * that a resource of another project (or organisation) is simply not found.
 */
export class SandboxStore {
  readonly #tokens = new Map<string, Caller>();
  readonly #connections = new Map<string, AuthConnection>();
  readonly #proxies = new Map<string, Proxy>();
  readonly #profiles = new Map<string, Profile>();
  readonly #browsers = new Map<string, Browser>();
  readonly #flows = new Map<string, LoginFlow>();

  constructor(fixture: SandboxFixture, now: number = Date.now()) {
    const organizations = new Map(fixture.organizations.map((o) => [o.id, o]));
    const projectOrg = new Map(fixture.projects.map((p) => [p.id, p.organizationId]));
    const scope = (s: FixtureScope): Scoped => {
      const organizationId = s.projectId === null ? s.organizationId : projectOrg.get(s.projectId);
      const org = organizationId === undefined ? undefined : organizations.get(organizationId);
      if (org === undefined) throw new Error('fixture scope does not resolve; check the fixture first');
      return { organizationId: org.id, logicalProjectId: s.projectId ?? org.defaultProjectId };
    };

    for (const t of fixture.tokens) {
      const s = scope(t);
      const organization = organizations.get(s.organizationId);
      if (organization === undefined) continue;
      this.#tokens.set(t.token, {
        tokenName: t.name,
        role: t.role,
        organization,
        logicalProjectId: s.logicalProjectId,
      });
    }
    for (const c of fixture.authConnections) {
      this.#connections.set(c.id, {
        ...scope(c),
        id: c.id,
        hasStoredCredentials: c.hasStoredCredentials,
        recordSession: c.recordSession,
        browserTelemetry: structuredClone(c.browserTelemetry ?? null),
      });
    }
    for (const p of fixture.proxies) this.#proxies.set(p.id, { ...scope(p), id: p.id, name: p.name, active: p.active });
    for (const p of fixture.profiles) {
      this.#profiles.set(p.id, {
        ...scope(p),
        id: p.id,
        name: p.name,
        createdAt: p.createdAt,
        ...(p.updatedAt === undefined ? {} : { updatedAt: p.updatedAt }),
        ...(p.lastUsedAt === undefined ? {} : { lastUsedAt: p.lastUsedAt }),
      });
    }
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
      this.#browsers.set(b.id, { ...scope(b), id: b.id, logs });
    }
  }

  /** The caller behind a token, or undefined for an unknown token. */
  authenticate(token: string): Caller | undefined {
    return this.#tokens.get(token);
  }

  /** Whether the caller's role and organisation's plan both grant the operation. */
  static permits(caller: Caller, operation: OperationId): boolean {
    return TOKEN_OPERATIONS[caller.role].includes(operation) && caller.organization.plan.operations.includes(operation);
  }

  connection(caller: Caller, id: string): AuthConnection | undefined {
    return visible(caller, this.#connections.get(id));
  }

  /** A connection by id regardless of caller: for the sandbox's own inspection endpoints. */
  connectionById(id: string): AuthConnection | undefined {
    return this.#connections.get(id);
  }

  /** A proxy by id, whatever its project (the caller decides what a foreign proxy means). */
  proxyById(caller: Caller, id: string): Proxy | undefined {
    const proxy = this.#proxies.get(id);
    return proxy?.organizationId === caller.organization.id ? proxy : undefined;
  }

  /** Active proxies of the caller's project with exactly this name. */
  activeProxiesNamed(caller: Caller, name: string): Proxy[] {
    return [...this.#proxies.values()].filter((p) => p.active && p.name === name && visible(caller, p) !== undefined);
  }

  /** Profiles of the caller's logical project whose id, or else whose name, is `idOrName`. */
  profilesByIdOrName(caller: Caller, idOrName: string): Profile[] {
    const byId = visible(caller, this.#profiles.get(idOrName));
    if (byId !== undefined) return [byId];
    return this.profilesNamed(caller, idOrName);
  }

  /** Profiles of the caller's logical project with exactly this name. */
  profilesNamed(caller: Caller, name: string): Profile[] {
    return [...this.#profiles.values()].filter((p) => p.name === name && visible(caller, p) !== undefined);
  }

  browser(caller: Caller, id: string): Browser | undefined {
    return visible(caller, this.#browsers.get(id));
  }

  /** A browser by id regardless of caller: for the sandbox's own endpoints. */
  browserById(id: string): Browser | undefined {
    return this.#browsers.get(id);
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

  profiles(): Profile[] {
    return [...this.#profiles.values()];
  }

  browsers(): Browser[] {
    return [...this.#browsers.values()];
  }

  /** Ends every follower of every log source: the state is being discarded. */
  dispose(): void {
    for (const b of this.#browsers.values()) for (const s of b.logs.values()) s.end();
  }
}

/** The status of a flow at `now`. */
export function flowStatus(flow: LoginFlow, now: number): FlowStatus {
  if (flow.completedAt !== undefined) return 'completed';
  return now < flow.expiresAt ? 'in_progress' : 'expired';
}

function visible<T extends Scoped>(caller: Caller, resource: T | undefined): T | undefined {
  if (resource === undefined) return undefined;
  if (resource.organizationId !== caller.organization.id) return undefined;
  return resource.logicalProjectId === caller.logicalProjectId ? resource : undefined;
}

function toLogLine(line: FixtureLogLine, at: number): LogLine {
  return typeof line === 'string' ? { timestamp: new Date(at).toISOString(), message: line } : { ...line };
}
