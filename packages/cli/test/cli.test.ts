import {
  DEFAULT_FIXTURE_REFS as R,
  flowTypesOf,
  loadSandboxDocument,
  type RunningSandbox,
  startSandbox,
} from '@browser-cloud/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMMAND_DEFINITIONS } from '../src/generated/command-definitions.js';
import { runCli } from './memory-io.js';
import { runBin } from './run-bin.js';

const FLOW = flowTypesOf(loadSandboxDocument());

let sandbox: RunningSandbox;
let env: Record<string, string>;
/** Where nothing listens: a sandbox that was started and stopped. */
let closedUrl: string;
const MAIN = ['--source', 'path', '--path', R.browsers.main.path] as const;
const LOGIN = ['auth', 'connections', 'login'];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  env = { BROWSER_CLOUD_BASE_URL: sandbox.url, BROWSER_CLOUD_API_KEY: R.tokens.owner };
  const stopped = await startSandbox({ port: 0, quiet: true });
  closedUrl = stopped.url;
  await stopped.close();
});
afterAll(() => sandbox?.close());
beforeEach(async () => {
  const reset = await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' });
  expect(reset.status).toBe(200);
  await reset.body?.cancel();
});

async function flows(): Promise<unknown[]> {
  return ((await (await fetch(`${sandbox.url}/_sandbox/flows`)).json()) as { flows: unknown[] }).flows;
}

const json = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

// Most tests run the CLI in this process (`runCli`); the help and the rename run the built bin as
// a user does, a process configured by its environment alone.
describe('help', () => {
  it('documents the commands, the environment and the exit codes, with examples per command', async () => {
    const top = await runBin(['--help'], {});
    expect(top.code).toBe(0);
    const commands = [...COMMAND_DEFINITIONS.map((definition) => definition.command), ['logs', 'tail']];
    for (const [group] of commands) expect(top.stdout).toMatch(new RegExp(`^  ${group} `, 'm'));
    expect(top.stdout).toContain('BROWSER_CLOUD_API_KEY');
    expect(top.stdout).toMatch(/6 {4}409/);
    for (const command of commands) {
      const help = await runCli([...command, '--help'], {});
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Examples:\n  $ browser-cloud ${command.join(' ')} `);
    }
  });

  it('bad usage exits 2', async () => {
    expect((await runCli(LOGIN, env)).code).toBe(2);
    expect((await runCli([...LOGIN, 'ac_1', '--bogus'], env)).code).toBe(2);
    const count = await runCli(['logs', 'tail', 'br_1', ...MAIN, '--max-retries', 'many'], env);
    expect(count.code).toBe(2);
    expect(count.stderr).toContain("option '--max-retries <n>' argument 'many' is invalid. must be a whole number.");
    const id = await runCli(['logs', 'tail', 'br_1', ...MAIN, '--since-id', '4\nX-Injected: 1'], env);
    expect(id.code).toBe(2);
    // The client's check: an event ID travels as the Last-Event-ID header.
    expect(id.stderr).toContain('lastEventId: must not contain a line break or NUL, nor another control character');
  });

  it('with --json, bad usage is the JSON error object on stderr, still 2', async () => {
    const cases: Array<[string[], string]> = [
      [[...LOGIN, '--json'], "missing required argument 'id'"],
      [[...LOGIN, 'ac_1', '--bogus', '--json'], "unknown option '--bogus'"],
      // --json after the option that failed: commander stopped before it.
      [[...LOGIN, 'ac_1', '--browser-telemetry', 'console,,network', '--json'], 'empty item in "console,,network"'],
      [['logs', 'tail', 'br_1', ...MAIN, '--json', '--max-retries', 'many'], 'must be a whole number.'],
      [['zz_not_a_command', '--json'], "unknown command 'zz_not_a_command'"],
    ];
    for (const [args, says] of cases) {
      const result = await runCli(args, env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.endsWith('\n') && result.stderr.trim().split('\n')).toHaveLength(1);
      const { error } = JSON.parse(result.stderr) as { error: { type: string; message: string } };
      expect(error.type).toBe('UsageError');
      expect(error.message).toContain(says);
      expect(error.message).not.toMatch(/^error: /);
    }
    // After `--`, "--json" is an argument, not the option.
    const operand = await runCli(['profiles', 'rename', 'a', '--', '--json', 'extra'], env);
    expect(operand.code).toBe(2);
    expect(operand.stderr).toMatch(/^error: too many arguments/);
  });
});

describe('auth connections login', () => {
  it('starts a flow, prints it (or its JSON), and a second login exits 6 with the 409', async () => {
    const first = await runCli([...LOGIN, R.authConnections.withoutCredentials], env);
    expect(first.code).toBe(0);
    // The answer's properties as `key: value` lines.
    expect(first.stdout).toMatch(
      new RegExp(
        `^id: ${R.authConnections.withoutCredentials}\nflow_type: ${FLOW.login}\nhosted_url: http://127\\.0\\.0\\.1:\\d+/_sandbox/hosted/`,
      ),
    );
    const second = await runCli([...LOGIN, R.authConnections.withoutCredentials, '--json'], env);
    expect(second.code).toBe(6);
    expect(second.stdout).toBe('');
    expect(JSON.parse(second.stderr)).toMatchObject({
      error: { type: 'ConflictError', status: 409, code: 'conflict', request_id: expect.any(String) },
    });
    const reauth = await runCli([...LOGIN, R.authConnections.withCredentials, '--json'], env);
    expect(reauth.code).toBe(0);
    expect(JSON.parse(reauth.stdout)).toMatchObject({ id: R.authConnections.withCredentials, flow_type: FLOW.reauth });
  });

  it('sends the proxy, record-session and telemetry options', async () => {
    const result = await runCli(
      [
        ...LOGIN,
        R.authConnections.withoutCredentials,
        '--proxy-name',
        R.proxies.datacenter.name,
        '--no-record-session',
        '--browser-telemetry',
        'on,console,-captcha',
      ],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    const flow = await (await fetch(`${sandbox.url}/_sandbox/flows/${R.authConnections.withoutCredentials}`)).json();
    expect(flow).toMatchObject({
      record_session: false,
      proxy: { id: R.proxies.datacenter.id },
      browser_telemetry: {
        requested: { enabled: true, browser: { console: { enabled: true }, captcha: { enabled: false } } },
      },
    });
  });

  it('sends a category without enabled for name:default, which the sandbox leaves at its default', async () => {
    const result = await runCli(
      [...LOGIN, R.authConnections.withoutCredentials, '--browser-telemetry', 'console:default,network'],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    const flow = await (await fetch(`${sandbox.url}/_sandbox/flows/${R.authConnections.withoutCredentials}`)).json();
    expect(flow).toMatchObject({
      browser_telemetry: {
        requested: { browser: { console: {}, network: { enabled: true } } },
        categories: ['control', 'connection', 'system', 'captcha', 'network'],
      },
    });
  });

  it.each([
    [['--proxy-id', 'prx_1', '--proxy-name', 'x'], 'body.proxy: must provide exactly one of "id" or "name"'],
    [
      ['--browser-telemetry', 'off,console'],
      'body.browser_telemetry: these properties are not allowed in this combination (enabled=false, browser)',
    ],
    [['--proxy-id', ''], 'body.proxy.id: must not be empty'],
  ])('refuses %j with the client’s ValidationError text, exit 2, nothing sent', async (args, message) => {
    const result = await runCli([...LOGIN, R.authConnections.withoutCredentials, ...args], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`browser-cloud: ${message}\n`);
    expect(await flows()).toEqual([]);
  });

  it('takes the telemetry as JSON too, as every object option', async () => {
    const result = await runCli(
      [...LOGIN, R.authConnections.withoutCredentials, '--browser-telemetry', '{"enabled":false}'],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    const flow = await (await fetch(`${sandbox.url}/_sandbox/flows/${R.authConnections.withoutCredentials}`)).json();
    expect(flow).toMatchObject({ browser_telemetry: { requested: { enabled: false } } });
  });

  it('a malformed --browser-telemetry list is bad usage', async () => {
    const result = await runCli(
      [...LOGIN, R.authConnections.withoutCredentials, '--browser-telemetry', 'console,,network'],
      env,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('empty item in "console,,network"');
  });
});

describe('profiles rename', () => {
  it('renames, and exits 5 when the name no longer finds the profile, 6 when the name is taken', async () => {
    const renamed = await runBin(['profiles', 'rename', R.profiles.defaultProject.name, 'checkout-eu', '--json'], env);
    expect(renamed.code).toBe(0);
    expect(JSON.parse(renamed.stdout)).toMatchObject({ id: R.profiles.defaultProject.id, name: 'checkout-eu' });
    const again = await runBin(['profiles', 'rename', R.profiles.defaultProject.name, 'checkout-eu'], env);
    expect(again.code).toBe(5);
    expect(again.stderr).toMatch(/^browser-cloud: 404 not_found: .*\n {2}request ID: req_/);
    const taken = await runBin(['profiles', 'rename', R.profiles.unscoped.id, 'checkout-eu'], env);
    expect(taken.code).toBe(6);
  });

  it('a name over 255 characters exits 2 with the client’s text', async () => {
    const result = await runCli(['profiles', 'rename', R.profiles.defaultProject.id, 'x'.repeat(256)], env);
    expect(result).toMatchObject({
      code: 2,
      stderr: 'browser-cloud: body.name: must be at most 255 characters (got 256)\n',
    });
  });
});

describe('configuration and errors by class', () => {
  it('exits 3 without an API key or base URL, naming the variable', async () => {
    const noKey = await runCli(['profiles', 'rename', 'a', 'b'], { BROWSER_CLOUD_BASE_URL: sandbox.url });
    expect(noKey.code).toBe(3);
    expect(noKey.stderr).toContain('BROWSER_CLOUD_API_KEY');
    const noUrl = await runCli(['profiles', 'rename', 'a', 'b'], { BROWSER_CLOUD_API_KEY: R.tokens.owner });
    expect(noUrl.code).toBe(3);
    expect(noUrl.stderr).toContain('BROWSER_CLOUD_BASE_URL');
  });

  it('says so in the words of a command line: the variables, not the client’s createClient()', async () => {
    const neither = await runCli(['profiles', 'rename', 'a', 'b'], {});
    expect(neither).toMatchObject({
      code: 3,
      stderr:
        'browser-cloud: BROWSER_CLOUD_BASE_URL and BROWSER_CLOUD_API_KEY are not set: set them in the environment (see browser-cloud --help).\n',
    });
    const blank = await runCli([...LOGIN, 'ac_1', '--json'], {
      BROWSER_CLOUD_BASE_URL: sandbox.url,
      BROWSER_CLOUD_API_KEY: ' \n',
    });
    expect(blank.code).toBe(3);
    expect(JSON.parse(blank.stderr)).toEqual({
      error: {
        type: 'ConfigurationError',
        message: 'BROWSER_CLOUD_API_KEY is not set: set it in the environment (see browser-cloud --help).',
      },
    });
    for (const result of [neither, blank]) expect(result.stderr).not.toMatch(/createClient|`token`|`baseUrl`/);
  });

  it('exits 4 on a 401 and 403, without printing the token', async () => {
    const secret = 'sk_cli_secret_9c8b7a';
    const refused = await runCli(['profiles', 'rename', 'a', 'b', '--json'], { ...env, BROWSER_CLOUD_API_KEY: secret });
    expect(refused.code).toBe(4);
    // The variable to check, in the words the MCP server uses (one message, from the client).
    expect(JSON.parse(refused.stderr)).toMatchObject({
      error: {
        status: 401,
        code: 'unauthorized',
        hint: 'The API key was refused: check BROWSER_CLOUD_API_KEY in the environment.',
      },
    });
    expect(refused.stdout + refused.stderr).not.toContain(secret);
    const text = await runCli(['profiles', 'rename', 'a', 'b'], { ...env, BROWSER_CLOUD_API_KEY: secret });
    expect(text.stderr).toMatch(
      /^browser-cloud: 401 unauthorized: .*\n {2}The API key was refused: check BROWSER_CLOUD_API_KEY in the environment\.\n/,
    );
    const readonly = await runCli([...LOGIN, R.authConnections.withoutCredentials], {
      ...env,
      BROWSER_CLOUD_API_KEY: R.tokens.readonly,
    });
    expect(readonly.code).toBe(4);
    expect(readonly.stdout + readonly.stderr).not.toContain(R.tokens.readonly);
  });

  it('exits 8 when the service cannot be reached', async () => {
    const result = await runCli(['logs', 'tail', 'br_1', ...MAIN, '--max-retries', '0'], {
      ...env,
      BROWSER_CLOUD_BASE_URL: closedUrl,
    });
    expect(result.code).toBe(8);
    // No reconnect is allowed, so no status line: the error names the cause.
    expect(result.stderr).toMatch(/^browser-cloud: Stream connection failed: .*\(ECONNREFUSED 127\.0\.0\.1:\d+\)\.\n$/);
  });
});

describe('logs tail', () => {
  it('prints NDJSON when piped, and ends with the log', async () => {
    const result = await runCli(['logs', 'tail', R.browsers.main.id, ...MAIN], env);
    expect(result.code).toBe(0);
    const events = json(result.stdout);
    // The sandbox's ids: the log's epoch and the line's position.
    const epoch = String(events[0]?.['id']).split('-')[0];
    expect(events.map((event) => event['id'])).toEqual([`${epoch}-1`, `${epoch}-2`, `${epoch}-3`]);
    expect(events[0]).toEqual({
      id: `${epoch}-1`,
      event: 'log',
      timestamp: expect.any(String),
      message: expect.any(String),
    });
  });

  it('--since-id resumes after that event; a supervised process is read with --process', async () => {
    const ids = json((await runCli(['logs', 'tail', R.browsers.main.id, ...MAIN], env)).stdout).map((e) => e['id']);
    const since = await runCli(['logs', 'tail', R.browsers.main.id, ...MAIN, '--since-id', String(ids[1])], env);
    expect(json(since.stdout).map((event) => event['id'])).toEqual([ids[2]]);
    const supervisor = await runCli(
      ['logs', 'tail', R.browsers.main.id, '--source', 'supervisor', '--process', R.browsers.main.supervisorProcess],
      env,
    );
    expect(supervisor.code).toBe(0);
    expect(json(supervisor.stdout)).toHaveLength(2);
  });

  it.each([
    [['--source', 'path'], 'query.path: is required'],
    [['--source', 'supervisor'], 'query.supervisor_process: is required'],
    [[], 'query.source: is required'],
  ])('refuses %j with the client’s text and exit 2', async (args, message) => {
    const result = await runCli(['logs', 'tail', R.browsers.main.id, ...args], {
      ...env,
      // Nothing may be sent: a request would meet a closed port and exit 8.
      BROWSER_CLOUD_BASE_URL: closedUrl,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`browser-cloud: ${message}\n`);
  });

  it('exits 5 for an unknown browser', async () => {
    const result = await runCli(['logs', 'tail', 'br_missing', ...MAIN], env);
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
  });
});
