import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args.js';

describe('parseCliArgs', () => {
  it('defaults to a request log and the PORT of the environment', () => {
    expect(parseCliArgs([], {})).toEqual({ help: false, options: { quiet: false } });
    expect(parseCliArgs([], { PORT: '5000' })).toEqual({ help: false, options: { quiet: false, port: 5000 } });
  });

  it('reads every option, with a space or an equals sign', () => {
    const command = parseCliArgs(
      [
        '--fixture',
        'f.json',
        '--port=0',
        '--host',
        '::1',
        '--flow-ttl-ms',
        '500',
        '--keep-alive-ms=20',
        '--retry-ms',
        '100',
        '--quiet',
      ],
      { PORT: '5000' },
    );
    expect(command).toEqual({
      help: false,
      options: { fixture: 'f.json', port: 0, host: '::1', flowTtlMs: 500, keepAliveMs: 20, retryMs: 100, quiet: true },
    });
  });

  it('reads the connection timeouts', () => {
    const command = parseCliArgs(
      ['--headers-timeout-ms', '100', '--request-timeout-ms=200', '--keep-alive-timeout-ms=400'],
      {},
    );
    expect(command).toEqual({
      help: false,
      options: {
        quiet: false,
        headersTimeoutMs: 100,
        requestTimeoutMs: 200,
        keepAliveTimeoutMs: 400,
      },
    });
    expect(() => parseCliArgs(['--request-timeout-ms', '1.5'], {})).toThrow(
      /--request-timeout-ms must be a non-negative integer/,
    );
  });

  it('answers --help', () => {
    expect(parseCliArgs(['--port', '1', '-h'], {})).toEqual({ help: true });
  });

  it('refuses unknown options, missing values and non-numbers', () => {
    expect(() => parseCliArgs(['--nope'], {})).toThrow(/Unknown option '--nope'/);
    expect(() => parseCliArgs(['--fixture'], {})).toThrow(/Option '--fixture <value>' argument missing/);
    expect(() => parseCliArgs(['--port', 'abc'], {})).toThrow(/--port must be a non-negative integer/);
    expect(() => parseCliArgs([], { PORT: '-1' })).toThrow(/PORT/);
  });
});
