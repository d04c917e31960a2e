import type { BrowserTelemetryRequestConfig, FlowType, TelemetryCategory } from '@browser-cloud/api-types';
import type { OpenApiDocument, Resource, ResourceModel } from '@browser-cloud/openapi-document';
import { badRequest, notFound } from '@browser-cloud/request-checker';
import type { FixtureOrganization, FixtureScope, SandboxFixture, TokenRole } from '../fixture/fixture-schema.js';
import { completeItem } from './items.js';
import { LogSource, stampLines } from './log-source.js';

/** The knobs of a running sandbox (see `StartSandboxOptions`). */
export interface SandboxSettings {
  flowTtlMs: number;
  keepAliveMs: number;
  retryMs: number;
  now: () => number;
  /** The sandbox's own base URL, for `hosted_url` and `live_view_url`. */
  publicUrl: () => string;
  /** The document's flow types, which logins answer with. */
  flowTypes: { readonly login: FlowType; readonly reauth: FlowType };
  /** The document and its resources, which the store keeps. */
  document: OpenApiDocument;
  model: ResourceModel;
}

/** Where a token acts or a resource lives: unscoped keys and resources count in the organisation's default project. */
export interface Scope {
  organization: FixtureOrganization;
  logicalProjectId: string | null;
}

export interface Caller extends Scope {
  tokenName: string;
  role: TokenRole;
}

/** What the seed's hand-written rules keep of an item besides what the API shows of it. */
export interface SeedData {
  /** An auth connection's login defaults. */
  connection?: {
    hasStoredCredentials: boolean;
    recordSession: boolean;
    browserTelemetry: BrowserTelemetryRequestConfig | null;
  };
  /** Whether a proxy may be used; an inactive one is never matched by name. */
  active?: boolean;
  /** A browser's log sources, keyed by `logSourceKey`. */
  logs?: Map<string, LogSource>;
}

/** One stored item of a resource. */
export interface Item extends Scope {
  readonly id: string;
  /** The item as the API shows it: the document's property names. */
  value: Record<string, unknown>;
  /** The ids of the items it lives under (a nested resource's parents). */
  readonly parents: readonly string[];
  readonly seed: SeedData;
}

/** A login flow, as `/_sandbox/flows` shows it (the README's table) but for its status, which depends on the time. */
export interface LoginFlow {
  connection_id: string;
  flow_id: string;
  flow_type: FlowType;
  hosted_url: string;
  flow_expires_at: string;
  handoff_code?: string;
  live_view_url: string;
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
}

export function flowStatus(flow: LoginFlow, now: number): 'in_progress' | 'completed' | 'expired' {
  if (flow.completed_at !== undefined) return 'completed';
  return now < Date.parse(flow.flow_expires_at) ? 'in_progress' : 'expired';
}

/** The key of a log source within a browser. */
export const logSourceKey = (source: string, name: string): string => `${source}\u0000${name}`;

/** The collections the fixture's own lists fill, by their path segment: the seed's resources. */
export const SEED_COLLECTIONS = {
  authConnections: 'connections',
  proxies: 'proxies',
  profiles: 'profiles',
  browsers: 'browsers',
} as const;

/**
 * The sandbox's in-memory state, built from a fixture: the items of every resource of the document
 * (and of the seed's, such as proxies, that no path names), in creation order. A lookup that takes
 * the caller sees only the caller's logical project: another project's item is not found.
 */
export class SandboxState {
  /** The caller behind each token. */
  readonly tokens = new Map<string, Caller>();
  /** Items by resource key, then by id; a `Map` keeps them in creation order. */
  readonly #items = new Map<string, Map<string, Item>>();
  /** The latest flow of each auth connection. */
  readonly flows = new Map<string, LoginFlow>();

  constructor(
    readonly fixture: SandboxFixture,
    readonly settings: SandboxSettings,
  ) {
    this.reset();
  }

  /** The resource key of a collection segment: the document's resource, else `/<segment>`. */
  keyOf(collection: string): string {
    return (
      this.settings.model.resources.find((r) => r.collection === collection && r.depth === 0)?.key ?? `/${collection}`
    );
  }

  /** The keys of the resources the fixture's own lists fill (the seed's: profiles, connections…). */
  seedKeys(): ReadonlySet<string> {
    return new Set(Object.values(SEED_COLLECTIONS).map((collection) => this.keyOf(collection)));
  }

  /** Back to the fixture: flows, changes, creations, deletions and appended lines are gone; open streams end. */
  reset(): void {
    this.dispose();
    const { fixture, settings } = this;
    const now = settings.now();
    const at = new Date(now).toISOString();
    this.tokens.clear();
    this.flows.clear();
    this.#items.clear();
    const organizations = new Map(fixture.organizations.map((o) => [o.id, o]));
    const projectOrg = new Map(fixture.projects.map((p) => [p.id, p.organizationId]));
    // checkFixture made sure that every scope resolves.
    const scope = (s: FixtureScope): Scope => {
      const organization = organizations.get(s.projectId === null ? s.organizationId! : projectOrg.get(s.projectId)!)!;
      return { organization, logicalProjectId: s.projectId ?? organization.defaultProjectId };
    };
    for (const t of fixture.tokens) this.tokens.set(t.token, { tokenName: t.name, role: t.role, ...scope(t) });
    const put = (
      key: string,
      given: FixtureScope,
      value: Record<string, unknown>,
      seed: SeedData = {},
      parents: readonly string[] = [],
    ) => {
      const resource = this.resource(key);
      const completed = resource ? completeItem(settings.document, resource, value, at) : value;
      const id = String(completed[resource?.idField ?? 'id']);
      this.items(key).set(id, { id, value: completed, parents, seed, ...scope(given) });
    };
    const key = (list: keyof typeof SEED_COLLECTIONS) => this.keyOf(SEED_COLLECTIONS[list]);
    const named = (list: keyof typeof SEED_COLLECTIONS, id: string, name?: string | null) => {
      const resource = this.resource(key(list));
      const value: Record<string, unknown> = { [resource?.idField ?? 'id']: id };
      if (name !== undefined) value[resource?.nameField ?? 'name'] = name;
      return value;
    };
    for (const c of fixture.authConnections) {
      const connection = {
        hasStoredCredentials: c.hasStoredCredentials,
        recordSession: c.recordSession,
        browserTelemetry: structuredClone(c.browserTelemetry ?? null),
      };
      put(key('authConnections'), c, named('authConnections', c.id), { connection });
    }
    for (const p of fixture.proxies) put(key('proxies'), p, named('proxies', p.id, p.name), { active: p.active });
    for (const p of fixture.profiles) {
      // The fixture's shorthand of a profile, written as the document's Profile shows it.
      const value = {
        ...named('profiles', p.id, p.name),
        created_at: p.createdAt,
        ...(p.updatedAt === undefined ? {} : { updated_at: p.updatedAt }),
        ...(p.lastUsedAt === undefined ? {} : { last_used_at: p.lastUsedAt }),
      };
      put(key('profiles'), p, value);
    }
    for (const b of fixture.browsers) {
      const logs = b.logs.map((l) => {
        const name = l.source === 'path' ? l.path : l.supervisorProcess;
        return [logSourceKey(l.source, name), new LogSource(stampLines(l.lines, now), l.epoch)] as const;
      });
      put(key('browsers'), b, named('browsers', b.id), { logs: new Map(logs) });
    }
    for (const [written, list] of Object.entries(fixture.resources ?? {})) {
      for (const entry of list) put(resourceKey(written), entry, structuredClone(entry.value), {}, entry.parents ?? []);
    }
    // A resource the fixture does not fill (one added to the document, the seed's aside) holds its
    // examples, in the project of the fixture's first token: there is something to read from the
    // start, as on a server that holds the user's resources.
    const [first] = fixture.tokens;
    const seeded = this.seedKeys();
    for (const resource of settings.model.resources) {
      if (first === undefined || resource.depth > 0 || seeded.has(resource.key) || this.items(resource.key).size > 0)
        continue;
      for (const example of resource.examples) {
        const id = example[resource.idField];
        const usable = typeof id === 'string' || Number.isInteger(id);
        if (usable && !this.items(resource.key).has(String(id))) put(resource.key, first, structuredClone(example));
      }
    }
  }

  /** The document's resource of `key`, if the document has one. */
  resource(key: string): Resource | undefined {
    return this.settings.model.resources.find((resource) => resource.key === key);
  }

  /** The items of a resource, every project's, in creation order. */
  items(key: string): Map<string, Item> {
    const items = this.#items.get(key) ?? new Map<string, Item>();
    this.#items.set(key, items);
    return items;
  }

  /** Every resource key that holds items. */
  keys(): string[] {
    return [...this.#items.keys()];
  }

  /** An item by id regardless of the caller: for the sandbox's own endpoints and the seed's rules. */
  byId(key: string, id: string): Item | undefined {
    return this.#items.get(key)?.get(id);
  }

  /** The items of the caller's project under `parents`, in creation order. */
  visible(key: string, caller: Caller, parents: readonly string[] = []): Item[] {
    return [...this.items(key).values()].filter((item) => isVisible(caller, item) && sameParents(item, parents));
  }

  /** The caller's items whose name (the resource's name property, else `name`) is `name`. */
  named(key: string, caller: Caller, name: string, parents: readonly string[] = []): Item[] {
    const field = this.resource(key)?.nameField ?? 'name';
    return this.visible(key, caller, parents).filter((item) => item.value[field] === name);
  }

  /**
   * The one item of the caller's project whose id, or else whose name, is `idOrName`.
   * @throws ApiError 404 for none, 400 naming `field` for several (names are unique best-effort).
   */
  find(key: string, caller: Caller, idOrName: string, field: string, parents: readonly string[] = []): Item {
    const byId = this.byId(key, idOrName);
    if (byId !== undefined && isVisible(caller, byId) && sameParents(byId, parents)) return byId;
    const collection = key.split('/').at(-1);
    const [first, ...others] = this.named(key, caller, idOrName, parents);
    if (first === undefined) throw notFound(`${idOrName} not found in ${collection}`);
    if (others.length > 0) {
      throw badRequest(`"${idOrName}" names ${others.length + 1} ${collection}; use the id`, [[field, 'ambiguous']]);
    }
    return first;
  }

  /** Stores a new item, last in creation order. */
  add(key: string, item: Item): void {
    this.items(key).set(item.id, item);
  }

  /** Removes an item; its open log streams end, its login flow goes. */
  delete(key: string, id: string): void {
    const item = this.byId(key, id);
    for (const source of item?.seed.logs?.values() ?? []) source.end();
    if (item?.seed.connection) this.flows.delete(id);
    this.#items.get(key)?.delete(id);
  }

  /** Ends every follower of every log source: the state is being discarded. */
  dispose(): void {
    for (const items of this.#items.values()) {
      for (const item of items.values()) for (const source of item.seed.logs?.values() ?? []) source.end();
    }
  }
}

/** A resource key as a fixture or a user writes it: `/browsers/{id}/pages` → `/browsers/{}/pages`. */
export const resourceKey = (written: string): string => written.replace(/\{[^}]*\}/g, '{}');

const isVisible = (caller: Caller, item: Scope): boolean =>
  item.organization === caller.organization && item.logicalProjectId === caller.logicalProjectId;

const sameParents = (item: Item, parents: readonly string[]): boolean =>
  item.parents.length === parents.length && item.parents.every((id, i) => id === parents[i]);
