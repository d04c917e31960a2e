import {
  CANNED,
  type CannedAnswer,
  cannedAnswers,
  type HostileServer,
  startHostileServer,
} from '@browser-cloud/test-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './memory-io.js';

/**
 * The CLI reads answers as a tolerant reader, whatever server answers: a property the document
 * does not know yet passes, a missing required property or a known one of the wrong type exits 1
 * naming the field. A server of canned answers plays the service's next release.
 */
const { profile: PROFILE, login: LOGIN, event } = CANNED;

const ANSWERS: Record<string, CannedAnswer> = {
  'PATCH /profiles/extra': { type: 'application/json', body: JSON.stringify({ ...PROFILE, region: 'eu-west' }) },
  'PATCH /profiles/bare': { type: 'application/json', body: JSON.stringify({ name: 'renamed' }) },
  'POST /auth/connections/ac_extra/login': {
    type: 'application/json',
    body: JSON.stringify({ ...LOGIN, region: 'eu' }),
  },
  'POST /auth/connections/ac_bare/login': {
    type: 'application/json',
    body: JSON.stringify((({ id: _, ...rest }) => rest)(LOGIN)),
  },
  'GET /browsers/br_extra/logs/stream': {
    type: 'text/event-stream',
    body: event(1) + event(2, { level: 'info' }) + event(3),
  },
  'GET /browsers/br_bad/logs/stream': {
    type: 'text/event-stream',
    body: event(1) + event(2, { timestamp: 1763841481 }),
  },
};

let server: HostileServer;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startHostileServer(cannedAnswers(ANSWERS));
  env = { BROWSER_CLOUD_BASE_URL: server.url, BROWSER_CLOUD_API_KEY: 'sk_test_tolerant' };
});
afterAll(() => server.close());

const TAIL = ['--source', 'path', '--path', '/var/log/chrome.log'];

describe('a property the document does not know yet', () => {
  it('in a Profile: the rename succeeds, and --json passes it through', async () => {
    const text = await runCli(['profiles', 'rename', 'extra', 'renamed'], env);
    // For people, the answer's properties as `key: value` lines, the new one among them.
    expect(text).toMatchObject({
      code: 0,
      stdout: `id: prof_1\ncreated_at: ${PROFILE.created_at}\nname: renamed\nregion: eu-west\n`,
    });
    const json = await runCli(['profiles', 'rename', 'extra', 'renamed', '--json'], env);
    expect(JSON.parse(json.stdout)).toEqual({ ...PROFILE, region: 'eu-west' });
  });

  it('in a login response: the login succeeds', async () => {
    const result = await runCli(['auth', 'connections', 'login', 'ac_extra', '--json'], env);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 'ac_1', region: 'eu' });
  });

  it('in a log event: the tail reads every event', async () => {
    const result = await runCli(['logs', 'tail', 'br_extra', ...TAIL], env);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line['message'])).toEqual(['line 1', 'line 2', 'line 3']);
    expect(lines[1]).toMatchObject({ id: '2', level: 'info' });
  });
});

describe('a missing required property, or a known one of the wrong type', () => {
  it('a 200 rename answer without id and created_at exits 1 naming the field, and prints no success', async () => {
    const result = await runCli(['profiles', 'rename', 'bare', 'renamed'], env);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'browser-cloud: The answer of PATCH /profiles/bare cannot be read as a Profile: body.id: is required\n',
    );
    const json = await runCli(['profiles', 'rename', 'bare', 'renamed', '--json'], env);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: { type: 'InvalidResponseError', field: 'body.id', rule: 'required' },
    });
  });

  it('a 200 login answer without id exits 1 naming the field', async () => {
    const result = await runCli(['auth', 'connections', 'login', 'ac_bare'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('body.id: is required');
  });

  it('a log event with a mistyped timestamp ends the tail with exit 1 naming the field, after the good events', async () => {
    const result = await runCli(['logs', 'tail', 'br_bad', ...TAIL], env);
    expect(result.code).toBe(1);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('event.timestamp: must be string');
  });
});
