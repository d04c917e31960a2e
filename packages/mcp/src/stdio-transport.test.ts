import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { guardStdin } from './stdio-transport.js';

/** Feeds `chunks` through the guard; what passed, what was answered, what was logged. */
async function guarded(chunks: string[], maxBytes: number) {
  const input = new PassThrough();
  const answered: string[] = [];
  const logged: string[] = [];
  const guard = guardStdin(
    input,
    { write: (text: string) => answered.push(text) },
    { write: (text: string) => logged.push(text) },
    maxBytes,
  );
  const passed: string[] = [];
  guard.on('data', (chunk: Buffer) => passed.push(chunk.toString()));
  const ended = new Promise((resolve) => guard.on('end', resolve));
  for (const chunk of chunks) input.write(chunk);
  input.end();
  await ended;
  return { passed: passed.join(''), answered, logged };
}

/** A JSON-RPC ping of id `id`, as a line. */
const ping = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`;

describe('guardStdin', () => {
  it('passes whole lines, in chunks of any size, and holds back a partial line', async () => {
    const { passed, answered } = await guarded(
      [ping(1).slice(0, 5), ping(1).slice(5) + ping(2).slice(0, 9), ping(2).slice(9), ping(3).slice(0, 20)],
      64,
    );
    expect(passed).toBe(ping(1) + ping(2));
    expect(answered).toEqual([]);
  });

  it('answers a line that is no JSON-RPC message, and passes the next', async () => {
    const { passed, answered, logged } = await guarded(['{"id":1}\n', '\n', ping(2)], 64);
    expect(passed).toBe(ping(2));
    expect(answered.map((line) => JSON.parse(line))).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid request: not an object with "jsonrpc": "2.0"' },
      },
    ]);
    expect(logged).toEqual([
      'browser-cloud-mcp: Invalid request: not an object with "jsonrpc": "2.0"; the server goes on.\n',
    ]);
  });

  it('answers an oversized line with a JSON-RPC error for its id, logs it, and passes the lines after it', async () => {
    const big = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"x":"${'y'.repeat(200)}"}}`;
    const { passed, answered, logged } = await guarded([ping(1), big.slice(0, 50), big.slice(50), `\n${ping(2)}`], 64);
    expect(passed).toBe(ping(1) + ping(2));
    expect(answered.map((line) => JSON.parse(line))).toEqual([
      {
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32600, message: `Message over 64 bytes (${big.length} bytes): not read` },
      },
    ]);
    expect(logged).toEqual([
      `browser-cloud-mcp: Message over 64 bytes (${big.length} bytes): not read; the server goes on.\n`,
    ]);
  });

  it('answers with id null when the line does not show its id', async () => {
    const { answered } = await guarded([`${'x'.repeat(100)}\n`], 64);
    expect(JSON.parse(answered[0]!)).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('a line of exactly the bound passes', async () => {
    const line = ping(1).trimEnd().padEnd(64);
    expect((await guarded([`${line}\n`], 64)).passed).toBe(`${line}\n`);
    expect((await guarded([`${line} \n`], 64)).passed).toBe('');
  });
});
