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

describe('logs tail against a server that sends the headers and then nothing', () => {
  it('without --follow, gives up after its retries (exit 8), each stalled connection counting as a failure', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
    const requests: Request[] = [];
    const io: CliIo = {
      stdout: new Capture(),
      stderr: new Capture(),
      env: { BROWSER_CLOUD_BASE_URL: 'http://stall.test', BROWSER_CLOUD_API_KEY: 'sk_x' },
      interrupt: new AbortController().signal,
      fetch: async (request) => {
        requests.push(request);
        return new Response(new ReadableStream(), { headers: { 'content-type': 'text/event-stream' } });
      },
    };
    let code: number | undefined;
    void run(['logs', 'tail', 'br_1', '--source', 'path', '--path', '/x.log'], io).then((result) => {
      code = result;
    });
    // Fake time runs through the idle timeouts (60 s each) and the backoff; a tail that never
    // gave up would run out of these steps.
    for (let step = 0; step < 100 && code === undefined; step++) await vi.advanceTimersByTimeAsync(10_000);
    expect(code).toBe(8);
    // The first connection and the 2 retries the README gives a tail without --follow.
    expect(requests).toHaveLength(3);
    expect((io.stderr as Capture).text).toMatch(/^browser-cloud: .*60000/m);
  });
});
