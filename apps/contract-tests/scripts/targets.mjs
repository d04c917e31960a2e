// What each target of the contract suite starts, and the environment the suite gets for it.
import { startMock, startPrism } from '@browser-cloud/mock';

/** The sandbox's fixture ids, passed the way a user passes a real server's resources. */
export function sandboxResources(refs) {
  return {
    CONTRACT_CONNECTION_ID: refs.authConnections.withoutCredentials,
    CONTRACT_REAUTH_CONNECTION_ID: refs.authConnections.withCredentials,
    CONTRACT_PROFILE_ID: refs.profiles.defaultProject.id,
    CONTRACT_PROFILE_NAME: refs.profiles.defaultProject.name,
    CONTRACT_TAKEN_PROFILE_NAME: refs.profiles.unscoped.name,
    // A profile no other case uses, for the cases of an operation that deletes one.
    CONTRACT_DELETABLE_PROFILE_ID: refs.profiles.deletable?.id,
    CONTRACT_PROXY_ID: refs.proxies.datacenter.id,
    CONTRACT_PROXY_NAME: refs.proxies.datacenter.name,
    CONTRACT_BROWSER_ID: refs.browsers.main.id,
    CONTRACT_LOG_PATH: refs.browsers.main.path,
    CONTRACT_LOG_SUPERVISOR_PROCESS: refs.browsers.main.supervisorProcess,
  };
}

function requireEnv(name, mode) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set for the ${mode} target`);
  return value;
}

/**
 * The sandbox of the `sandbox` and `live-sandbox` targets: the one at CONTRACT_SANDBOX_URL (as
 * `npm run sandbox` starts it), reset to its fixture through its `/_sandbox/reset` endpoint before
 * and after the run so that runs in a row find it alike; else one started for the run.
 */
async function sandboxFor(cleanups) {
  const { startSandbox, DEFAULT_FIXTURE_REFS: refs } = await import('@browser-cloud/sandbox');
  const given = process.env.CONTRACT_SANDBOX_URL?.replace(/\/+$/, '');
  if (given) {
    const reset = async () => {
      const response = await fetch(`${given}/_sandbox/reset`, { method: 'POST', signal: AbortSignal.timeout(10_000) });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`CONTRACT_SANDBOX_URL: ${given}/_sandbox/reset answered ${response.status}`);
    };
    await reset();
    cleanups.push(reset);
    return { url: given, refs };
  }
  const sandbox = await startSandbox({ port: 0, quiet: true, retryMs: 50, keepAliveMs: 2_000 });
  cleanups.push(() => sandbox.close());
  return { url: sandbox.url, refs };
}

/** Starts what the target needs (stopped by `cleanups`); returns the environment of the suite. */
export async function prepareTarget(mode, cleanups) {
  if (mode === 'mock') {
    const mock = await startMock();
    cleanups.push(mock.close);
    return {
      CONTRACT_BASE_URL: mock.url,
      CONTRACT_TOKEN: 'contract-test-token',
      describe: `mock at ${mock.url} (validating front before Prism at ${mock.prismUrl})`,
    };
  }
  if (mode === 'server') {
    return {
      CONTRACT_BASE_URL: requireEnv('API_BASE_URL', mode).replace(/\/+$/, ''),
      CONTRACT_TOKEN: requireEnv('API_TOKEN', mode),
      describe: `server at ${process.env.API_BASE_URL}`,
    };
  }
  if (mode === 'proxy') {
    const upstream = requireEnv('API_UPSTREAM_URL', mode);
    const prism = await startPrism({ upstream });
    cleanups.push(prism.stop);
    return {
      CONTRACT_BASE_URL: prism.url,
      CONTRACT_DIRECT_URL: upstream.replace(/\/+$/, ''),
      CONTRACT_TOKEN: requireEnv('API_TOKEN', mode),
      describe: `Prism proxy at ${prism.url} → ${upstream}`,
    };
  }
  if (mode === 'live-sandbox') {
    // The sandbox as any live server: its fixture ids come in through the CONTRACT_* variables
    // and nothing else, so this target proves the live path end to end.
    const { url, refs } = await sandboxFor(cleanups);
    return {
      ...sandboxResources(refs),
      CONTRACT_MODE: 'server',
      CONTRACT_BASE_URL: url,
      CONTRACT_TOKEN: refs.tokens.owner,
      describe: `sandbox at ${url} as a live server (ids from CONTRACT_* variables)`,
    };
  }
  if (mode === 'sandbox') {
    const { url, refs } = await sandboxFor(cleanups);
    const prism = await startPrism({ upstream: url });
    cleanups.push(prism.stop);
    return {
      ...sandboxResources(refs),
      CONTRACT_BASE_URL: prism.url,
      CONTRACT_DIRECT_URL: url,
      CONTRACT_TOKEN: refs.tokens.owner,
      CONTRACT_SANDBOX: JSON.stringify({ refs, directUrl: url }),
      describe: `sandbox at ${url} behind Prism proxy ${prism.url}`,
    };
  }
  throw new Error(`unknown target "${mode}" (mock, sandbox, live-sandbox, server, proxy)`);
}
