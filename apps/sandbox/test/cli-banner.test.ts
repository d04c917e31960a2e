// What `npm run sandbox` prints on start: besides the ids, each browser's log sources, which
// `browser-cloud logs tail` needs (a browser id alone cannot be tailed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banner } from '../src/cli-banner.js';
import type { RunningSandbox } from '../src/index.js';
import { REFS, start } from './helpers.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await start();
});
afterAll(() => sandbox.close());

describe('the start-up banner', () => {
  it("lists each browser's log paths and supervisor processes as logs tail takes them", () => {
    const text = banner(sandbox.url, sandbox.fixture);
    const { main, quiet, otherProject } = REFS.browsers;
    const section = text.split('Browser logs (browser-cloud logs tail <browser id> <source>):\n')[1]?.split('\n\n')[0];
    expect(section?.split('\n')).toEqual([
      `  ${main.id.padEnd(17)}--source path --path ${main.path}`,
      `  ${''.padEnd(17)}--source supervisor --process ${main.supervisorProcess}`,
      `  ${quiet.id.padEnd(17)}--source path --path ${quiet.path}`,
      `  ${otherProject.id.padEnd(17)}--source path --path ${otherProject.path}`,
    ]);
    expect(text).toContain(`  browsers         ${[main.id, quiet.id, otherProject.id].join(', ')}`);
  });

  it('names log sources the sandbox serves: the logs of the first one stream', async () => {
    const [browser, [log]] = Object.entries(sandbox.fixture.browserLogs)[0]!;
    const query =
      log?.source === 'path'
        ? `source=path&path=${encodeURIComponent(log.path)}`
        : `source=supervisor&supervisor_process=${encodeURIComponent(log?.supervisorProcess ?? '')}`;
    const response = await fetch(`${sandbox.url}/browsers/${browser}/logs/stream?${query}`, {
      headers: { authorization: `Bearer ${REFS.tokens.owner}` },
    });
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it('has no logs section for a fixture without browsers', async () => {
    const text = banner('http://127.0.0.1:1', { ...sandbox.fixture, browsers: [], browserLogs: {} });
    expect(text).not.toContain('Browser logs');
    expect(text).toContain('  browsers         -');
  });
});
