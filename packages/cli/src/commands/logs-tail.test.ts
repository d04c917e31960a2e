import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CliIo, OutputStream } from '../cli-io.js';
import { run } from '../program.js';

class Capture implements OutputStream {
  text = '';
  readonly isTTY = false;
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
  once(): this {
    return this;
  }
}

afterEach(() => {
  vi.useRealTimers();
});

/** The status lines of a tail whose stderr is not a terminal. */
const statusLines = (io: CliIo) => (io.stderr as Capture).text.split('\n').filter((line) => line !== '');

function ioFor(answer: (index: number) => Response, requests: Request[] = []): CliIo {
  return {
    stdout: new Capture(),
    stderr: new Capture(),
    env: { BROWSER_CLOUD_BASE_URL: 'http://stall.test', BROWSER_CLOUD_API_KEY: 'sk_x' },
    interrupt: new AbortController().signal,
    fetch: async (request) => {
      requests.push(request);
      return answer(requests.length - 1);
    },
  };
}

const stalled = () => new Response(new ReadableStream(), { headers: { 'content-type': 'text/event-stream' } });
const event = 'id: 7\ndata: {"event":"log","timestamp":"2026-11-22T19:58:03.120Z","message":"back"}\n\n';

/** Runs the CLI while fake time runs through idle timeouts (60 s each) and the backoff. */
async function runFaked(args: string[], io: CliIo): Promise<number | undefined> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
  let code: number | undefined;
  void run(args, io).then((result) => {
    code = result;
  });
  // A tail that never gave up would run out of these steps.
  for (let step = 0; step < 100 && code === undefined; step++) await vi.advanceTimersByTimeAsync(10_000);
  return code;
}

describe('logs tail against a server that sends the headers and then nothing', () => {
  it('without --follow, gives up after its retries (exit 8), each stalled connection counting as a failure', async () => {
    const requests: Request[] = [];
    const io = ioFor(stalled, requests);
    expect(await runFaked(['logs', 'tail', 'br_1', '--source', 'path', '--path', '/x.log'], io)).toBe(8);
    // The first connection and the 2 retries the README gives a tail without --follow.
    expect(requests).toHaveLength(3);
    // The attempts as the client counts them, and never a "reconnected" that did not happen.
    expect(statusLines(io)).toEqual([
      'browser-cloud: no data in time; reconnecting (attempt 1 of 2)…',
      'browser-cloud: no data in time; reconnecting (attempt 2 of 2)…',
      expect.stringMatching(/^browser-cloud: .*60000/),
    ]);
  });

  it('says "reconnected" once the stream delivers again, not at the open', async () => {
    const io = ioFor((index) =>
      index === 0 ? stalled() : new Response(event, { headers: { 'content-type': 'text/event-stream' } }),
    );
    expect(await runFaked(['logs', 'tail', 'br_1', '--source', 'path', '--path', '/x.log'], io)).toBe(0);
    expect(statusLines(io)).toEqual([
      'browser-cloud: no data in time; reconnecting (attempt 1 of 2)…',
      'browser-cloud: reconnected',
    ]);
    expect(JSON.parse((io.stdout as Capture).text)).toMatchObject({ id: '7', message: 'back' });
  });
});
