import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cannedAnswers, gzipBomb, refusingUrl, startHostileServer } from './index.js';

describe('startHostileServer', () => {
  it('answers as its handler says and records each request with its Authorization header', async () => {
    const server = await startHostileServer(cannedAnswers({ 'GET /x': { type: 'text/plain', body: 'canned' } }));
    try {
      const answer = await fetch(`${server.url}/x?q=1`, { headers: { authorization: 'Bearer t' } });
      expect([answer.status, await answer.text()]).toEqual([200, 'canned']);
      const missing = await fetch(`${server.url}/y`, { method: 'POST', body: 'ignored' });
      expect(missing.status).toBe(404);
      await missing.text();
      expect(server.requests).toEqual([
        { method: 'GET', url: '/x?q=1', authorization: 'Bearer t' },
        { method: 'POST', url: '/y', authorization: undefined },
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('refusingUrl', () => {
  it('is a loopback URL whose port refuses connections', async () => {
    const url = await refusingUrl('/p');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/p$/);
    await expect(fetch(url)).rejects.toThrow();
  });
});

describe('gzipBomb', () => {
  it('unpacks to the bytes asked for, at least a hundred times its own size', async () => {
    const bomb = await gzipBomb(8 * 1024 * 1024);
    const unpacked = gunzipSync(bomb);
    expect(unpacked.length).toBe(8 * 1024 * 1024);
    expect(unpacked.every((byte) => byte === 0)).toBe(true);
    expect(bomb.length * 100).toBeLessThan(unpacked.length);
  });
});
