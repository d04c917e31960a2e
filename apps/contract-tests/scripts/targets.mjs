// What each target of the contract suite starts, and the environment the suite gets for it.
import { startMock, startPrism } from '@browser-cloud/mock';

/** The sandbox's fixture ids, passed the way a user passes a real server's resources. */
export function sandboxResources(refs) {
  const { authConnections, profiles, proxies, browsers } = refs;
  return {
    CONTRACT_CONNECTION_ID: authConnections.withoutCredentials,
    CONTRACT_REAUTH_CONNECTION_ID: authConnections.withCredentials,
    CONTRACT_PROFILE_ID: profiles.defaultProject.id,
    CONTRACT_PROFILE_NAME: profiles.defaultProject.name,
    CONTRACT_TAKEN_PROFILE_NAME: profiles.unscoped.name,
    // A profile no other case uses, for the cases of an operation that deletes one.
    CONTRACT_DELETABLE_PROFILE_ID: profiles.deletable?.id,
    CONTRACT_PROXY_ID: proxies.datacenter.id,
    CONTRACT_PROXY_NAME: proxies.datacenter.name,
    CONTRACT_BROWSER_ID: browsers.main.id,
    CONTRACT_LOG_PATH: browsers.main.path,
    CONTRACT_LOG_SUPERVISOR_PROCESS: browsers.main.supervisorProcess,
  };
}

function requireEnv(name, mode) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set for the ${mode} target`);
  return name.endsWith('_URL') ? value.replace(/\/+$/, '') : value;
}

/** The sandbox at CONTRACT_SANDBOX_URL, reset before and after the run so that runs in a row agree; else one of its own. */
async function sandboxFor(cleanups) {
  const { startSandbox, DEFAULT_FIXTURE_REFS: refs } = await import('@browser-cloud/sandbox');
  let url = process.env.CONTRACT_SANDBOX_URL?.replace(/\/+$/, '');
  if (url) {
    const reset = async () => {
      const response = await fetch(`${url}/_sandbox/reset`, { method: 'POST', signal: AbortSignal.timeout(10_000) });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`CONTRACT_SANDBOX_URL: ${url}/_sandbox/reset answered ${response.status}`);
    };
    await reset();
    cleanups.push(reset);
  } else {
    const sandbox = await startSandbox({ port: 0, quiet: true, retryMs: 50, keepAliveMs: 2_000 });
    cleanups.push(() => sandbox.close());
    url = sandbox.url;
  }
  // Under the fixture's ids, the examples of the operations the sandbox serves from them (src/engine/resources.ts).
  const env = { ...sandboxResources(refs), CONTRACT_EXAMPLE_RESOURCES: '1', CONTRACT_TOKEN: refs.tokens.owner };
  return { url, env };
}

/** Starts what the target needs (stopped by `cleanups`); returns the environment of the suite. */
export async function prepareTarget(mode, cleanups) {
  const behindPrism = async (upstream, env, what) => {
    const prism = await startPrism({ upstream });
    cleanups.push(prism.stop);
    const describe = `${what} at ${upstream} behind Prism proxy ${prism.url}`;
    return { ...env, CONTRACT_BASE_URL: prism.url, CONTRACT_DIRECT_URL: upstream, describe };
  };
  if (mode === 'mock') {
    const mock = await startMock();
    cleanups.push(mock.close);
    const describe = `mock at ${mock.url} (validating front before Prism at ${mock.prismUrl})`;
    return { CONTRACT_BASE_URL: mock.url, CONTRACT_TOKEN: 'contract-test-token', describe };
  }
  if (mode === 'server' || mode === 'proxy') {
    const token = requireEnv('API_TOKEN', mode);
    if (mode === 'proxy') return behindPrism(requireEnv('API_UPSTREAM_URL', mode), { CONTRACT_TOKEN: token }, 'server');
    const url = requireEnv('API_BASE_URL', mode);
    return { CONTRACT_BASE_URL: url, CONTRACT_TOKEN: token, describe: `server at ${url}` };
  }
  if (mode === 'live-sandbox' || mode === 'sandbox') {
    const { url, env } = await sandboxFor(cleanups);
    if (mode === 'sandbox') return behindPrism(url, env, 'sandbox');
    // The sandbox as any live server: its fixture ids come in through the CONTRACT_* variables and
    // nothing else, so that this target proves the live path end to end.
    const describe = `sandbox at ${url} as a live server (ids from CONTRACT_* variables)`;
    return { ...env, CONTRACT_MODE: 'server', CONTRACT_BASE_URL: url, describe };
  }
  throw new Error(`unknown target "${mode}" (mock, sandbox, live-sandbox, server, proxy)`);
}
