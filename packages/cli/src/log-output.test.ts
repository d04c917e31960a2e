import { describe, expect, it } from 'vitest';
import type { CliIo, OutputStream } from './cli-io.js';
import { logOutput } from './log-output.js';

class Capture implements OutputStream {
  text = '';
  constructor(readonly isTTY: boolean) {}
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
  once(): this {
    return this;
  }
}

function io(tty: { stdout: boolean; stderr: boolean }, env: Record<string, string> = {}) {
  const stdout = new Capture(tty.stdout);
  const stderr = new Capture(tty.stderr);
  const cli: CliIo = { stdout, stderr, env, interrupt: new AbortController().signal };
  return { cli, stdout, stderr };
}

const event = (message: string) => ({ event: 'log', timestamp: '2026-11-22T19:58:03.120Z', message });

describe('logOutput', () => {
  it('on a terminal: timestamp dimmed, errors red, warnings yellow, plain lines plain', async () => {
    const { cli, stdout } = io({ stdout: true, stderr: true });
    const output = logOutput(cli, { json: false });
    await output.event('1', event('[0101:ERROR:net] failed'));
    await output.event('2', event('[0101:WARNING:net] slow'));
    await output.event('3', event('[0101:INFO:net] fine'));
    expect(stdout.text.split('\n')).toEqual([
      '\u001b[2m2026-11-22T19:58:03.120Z\u001b[0m \u001b[31m[0101:ERROR:net] failed\u001b[0m',
      '\u001b[2m2026-11-22T19:58:03.120Z\u001b[0m \u001b[33m[0101:WARNING:net] slow\u001b[0m',
      '\u001b[2m2026-11-22T19:58:03.120Z\u001b[0m [0101:INFO:net] fine',
      '',
    ]);
  });

  it('NO_COLOR turns the colours off', async () => {
    const { cli, stdout } = io({ stdout: true, stderr: true }, { NO_COLOR: '1' });
    await logOutput(cli, { json: false }).event('1', event('[0101:ERROR:net] failed'));
    expect(stdout.text).toBe('2026-11-22T19:58:03.120Z [0101:ERROR:net] failed\n');
  });

  it('piped, or with --json on a terminal: NDJSON with the event ID', async () => {
    for (const [tty, json] of [
      [false, false],
      [true, true],
    ] as const) {
      const { cli, stdout } = io({ stdout: tty, stderr: tty });
      await logOutput(cli, { json }).event('7', event('a "quoted" line'));
      expect(JSON.parse(stdout.text)).toEqual({ id: '7', ...event('a "quoted" line') });
      expect(stdout.text.endsWith('}\n')).toBe(true);
    }
  });

  it('on a terminal the reconnect status is one line, rewritten, and cleared before the next event', async () => {
    const { cli, stdout, stderr } = io({ stdout: true, stderr: true });
    const output = logOutput(cli, { json: false });
    output.status('reconnecting after event 4 (attempt 1)…');
    output.status('connection failed: ECONNREFUSED; retrying…');
    expect(stderr.text).toBe(
      '\r\u001b[2K\u001b[33m⟳ reconnecting after event 4 (attempt 1)…\u001b[0m' +
        '\r\u001b[2K\u001b[33m⟳ connection failed: ECONNREFUSED; retrying…\u001b[0m',
    );
    output.connected();
    expect(stderr.text.endsWith('\r\u001b[2K')).toBe(true);
    stderr.text = '';
    await output.event('5', event('back'));
    expect(stderr.text).toBe('');
    expect(stdout.text).toContain('back');
  });

  it('in a log (stderr not a terminal) each status is a line, and the reconnect is said once', () => {
    const { cli, stderr } = io({ stdout: false, stderr: false });
    const output = logOutput(cli, { json: false });
    output.connected();
    output.status('reconnecting after event 4 (attempt 1)…');
    output.connected();
    output.connected();
    expect(stderr.text).toBe('browser-cloud: reconnecting after event 4 (attempt 1)…\nbrowser-cloud: reconnected\n');
  });

  it('says where to resume when stopped, as text or with --json as JSON', async () => {
    const human = io({ stdout: true, stderr: true });
    await logOutput(human.cli, { json: false }).stopped('42');
    expect(human.stderr.text).toBe('Stopped after event 42. Resume with: --since-id 42\n');
    const none = io({ stdout: false, stderr: false });
    await logOutput(none.cli, { json: false }).stopped('');
    expect(none.stderr.text).toBe('Stopped before any event.\n');
    const json = io({ stdout: false, stderr: false });
    await logOutput(json.cli, { json: true }).stopped('42');
    expect(JSON.parse(json.stderr.text)).toEqual({ stopped: true, last_event_id: '42' });
  });
});

describe('logOutput, on what a hostile server sends', () => {
  const hostile = '\u001b]0;pwned\u0007\u001b[2J[0101:ERROR:net] \rgone';

  it('on a terminal, shows escape sequences and line breaks instead of acting on them; keeps its own colours', async () => {
    const { cli, stdout, stderr } = io({ stdout: true, stderr: true });
    const output = logOutput(cli, { json: false });
    await output.event('7', { ...event(hostile), timestamp: '\u001b[H2026' });
    output.status('reconnecting after event \u001b[2J7');
    await output.stopped('\u001b[2J7');
    expect(stdout.text).toBe(
      '\u001b[2m\\u001b[H2026\u001b[0m \u001b[31m\\u001b]0;pwned\\u0007\\u001b[2J[0101:ERROR:net] \\rgone\u001b[0m\n',
    );
    expect(stderr.text).toContain('reconnecting after event \\u001b[2J7');
    expect(stderr.text).toContain('Stopped after event \\u001b[2J7. Resume with: --since-id \\u001b[2J7\n');
  });

  it('NDJSON stays exact JSON: the message comes back as the server sent it', async () => {
    const { cli, stdout } = io({ stdout: false, stderr: false });
    await logOutput(cli, { json: false }).event('\u001b7', event(hostile));
    const line = stdout.text.trim();
    expect([...line].every((character) => character >= ' ')).toBe(true);
    expect(JSON.parse(line)).toEqual({ id: '\u001b7', ...event(hostile) });
  });
});
