import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHostileServer } from '@browser-cloud/test-servers';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteLeftovers, leftovers, noteCreated, noteDeleted } from './created-resources.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const ledgerFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'contract-ledger-'));
  dirs.push(dir);
  return join(dir, 'created.jsonl');
};

describe('the ledger of what a run created', () => {
  it('lists what was created and not deleted, per server, and skips a half-written last line', () => {
    const file = ledgerFile();
    expect(leftovers(file)).toEqual([]);
    noteCreated(file, 'http://a', 'DELETE /profiles/prof_1');
    noteCreated(file, 'http://a', 'DELETE /profiles/prof_2');
    noteCreated(file, 'http://b', 'DELETE /profiles/prof_1');
    noteDeleted(file, 'http://a', 'DELETE /profiles/prof_1');
    appendFileSync(file, '{"at":"http://a","crea');
    expect(leftovers(file)).toEqual([
      { at: 'http://a', removal: 'DELETE /profiles/prof_2' },
      { at: 'http://b', removal: 'DELETE /profiles/prof_1' },
    ]);
  });

  it('deletes the leftovers of one server with the token: gone on a 2xx or a 404, a problem otherwise', async () => {
    const server = await startHostileServer((request, response) => {
      request.resume();
      response.writeHead(
        request.url === '/profiles/prof_stuck' ? 500 : request.url === '/profiles/prof_gone' ? 404 : 204,
      );
      response.end();
    });
    try {
      const file = ledgerFile();
      for (const id of ['prof_left', 'prof_gone', 'prof_stuck'])
        noteCreated(file, server.url, `DELETE /profiles/${id}`);
      noteCreated(file, 'http://elsewhere', 'DELETE /profiles/prof_other');
      const problems = await deleteLeftovers(file, leftovers(file), { baseUrl: server.url, token: 'sk_ledger' });
      expect(problems).toEqual(['DELETE /profiles/prof_stuck: answered 500']);
      expect(server.requests.map((r) => `${r.method} ${r.url} ${r.authorization}`)).toEqual([
        'DELETE /profiles/prof_left Bearer sk_ledger',
        'DELETE /profiles/prof_gone Bearer sk_ledger',
        'DELETE /profiles/prof_stuck Bearer sk_ledger',
      ]);
      expect(leftovers(file).map((e) => e.removal)).toEqual([
        'DELETE /profiles/prof_stuck',
        'DELETE /profiles/prof_other',
      ]);
    } finally {
      await server.close();
    }
  });
});
