// The resources of the target the suite may use, from the environment. On a real server the
// document's example ids do not exist, so every case that needs one names its variable; a case
// whose variable is not set is skipped with that name in its title.
import { describe, it, type TestContext } from 'vitest';
import { skipTitle } from '../../scripts/skips.mjs';
import type { KnownValues } from '../engine/request-cases.js';

/** Each resource and the environment variable that gives it. */
export const RESOURCE_VARIABLES = {
  /** An auth connection without stored credentials: its logins are LOGIN flows. */
  connectionId: 'CONTRACT_CONNECTION_ID',
  /** An auth connection with stored credentials: its logins are REAUTH flows. Optional. */
  reauthConnectionId: 'CONTRACT_REAUTH_CONNECTION_ID',
  /** A profile the suite may rename. */
  profileId: 'CONTRACT_PROFILE_ID',
  /** The current name of that profile, which the suite restores at the end. Optional. */
  profileName: 'CONTRACT_PROFILE_NAME',
  /** The name of another profile of the same project (the duplicate-name case). Optional. */
  takenProfileName: 'CONTRACT_TAKEN_PROFILE_NAME',
  /** The id and the name of one active proxy of the project (the exactly-one ProxyRef cases). */
  proxyId: 'CONTRACT_PROXY_ID',
  proxyName: 'CONTRACT_PROXY_NAME',
  /** A browser session, one of its log files and one of its supervised processes. */
  browserId: 'CONTRACT_BROWSER_ID',
  logPath: 'CONTRACT_LOG_PATH',
  supervisorProcess: 'CONTRACT_SUPERVISOR_PROCESS',
} as const;

export type ResourceName = keyof typeof RESOURCE_VARIABLES;
export type Resources = Partial<Record<ResourceName, string>>;

/**
 * The document's example ids: the Prism mock answers any id, so on the mock every resource is
 * "given" and the cases run with these.
 */
export const MOCK_RESOURCES: Required<Resources> = {
  connectionId: 'ac_01HZY2R6F1J8K3P5S7T9V2X4ZA',
  reauthConnectionId: 'ac_01HZY2R6F1J8K3P5S7T9V2X4ZB',
  profileId: 'prof_01HZY5C7D9E1F3G5H7J9K1M3NA',
  profileName: 'checkout-agent-eu',
  takenProfileName: 'checkout-agent',
  proxyId: 'prx_01HZY3T8Q2W5M7V9K4C6B1N0DA',
  proxyName: 'residential-us-east',
  browserId: 'br_01HZY4A2B3C4D5E6F7G8H9J0KA',
  logPath: '/var/log/chromium/chrome_debug.log',
  supervisorProcess: 'chromium',
};

/** The resources the environment gives; empty values count as not given. */
export function resourcesFrom(env: Record<string, string | undefined>): Resources {
  const resources: Resources = {};
  for (const [name, variable] of Object.entries(RESOURCE_VARIABLES) as [ResourceName, string][]) {
    const value = env[variable]?.trim();
    if (value) resources[name] = value;
  }
  return resources;
}

/** Why a case that needs `names` cannot run, or undefined when every one is given. */
export function missingReason(resources: Resources, names: readonly ResourceName[]): string | undefined {
  const missing = names.filter((name) => resources[name] === undefined).map((name) => RESOURCE_VARIABLES[name]);
  return missing.length > 0 ? `${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set` : undefined;
}

/**
 * Skips the running case for `reason`, which the runner reads back (console summary, junit.xml,
 * summary.json): for what the target's state makes impossible to check now.
 */
export function skipNow(context: TestContext, reason: string): never {
  (context.task.meta as { skipReason?: string }).skipReason = reason;
  return context.skip(reason);
}

/**
 * `it`, or `it.skip` with the missing variables in the title when the case needs resources the
 * environment does not give. The body receives the resources, all present.
 */
export function itWith<const N extends ResourceName>(
  resources: Resources,
  names: readonly N[],
  title: string,
  body: (given: Record<N, string>, context: TestContext) => Promise<void> | void,
  timeout?: number,
) {
  const reason = missingReason(resources, names);
  if (reason) return it.skip(skipTitle(title, reason), () => {});
  return it(title, (context) => body(resources as Record<N, string>, context), timeout);
}

/** `describe`, or `describe.skip` with the missing variables in the title (see `itWith`); its cases are reported as skipped. */
export function describeWith<const N extends ResourceName>(
  resources: Resources,
  names: readonly N[],
  title: string,
  body: (given: Record<N, string>) => void,
) {
  const reason = missingReason(resources, names);
  // Skipped, the suite still declares its cases, so that each is reported with the reason; none
  // of them runs, so none reads the missing values.
  if (reason) return describe.skip(skipTitle(title, reason), () => body(resources as Record<N, string>));
  return describe(title, () => body(resources as Record<N, string>));
}

/**
 * Which resource fits which parameter: the generated cases prefer these values to random ones, so
 * that they reach resources that exist (random ids mostly meet 404s).
 */
export function knownValues(resources: Resources): Record<string, KnownValues> {
  const given = (...values: (string | undefined)[]) => values.filter((v): v is string => v !== undefined);
  return {
    loginAuthConnection: { path: { id: given(resources.connectionId, resources.reauthConnectionId) } },
    renameProfile: {
      path: { id_or_name: given(resources.profileId) },
      body: { '/name': given(resources.takenProfileName) },
    },
    streamBrowserLogs: {
      path: { id: given(resources.browserId) },
      query: { path: given(resources.logPath), supervisor_process: given(resources.supervisorProcess) },
    },
  };
}
