import type { FixtureSummary } from './fixture/load-fixture.js';
import { SANDBOX_PREFIX } from './routes/sandbox-routes.js';

/**
 * What the CLI prints on start: where it listens, the tokens, the ids to try, and each browser's
 * log sources as `browser-cloud logs tail` takes them (a browser id alone cannot be tailed).
 */
export function banner(url: string, fixture: FixtureSummary): string {
  const { tokens, authConnections, proxies, profiles, browsers, browserLogs } = fixture;
  const ids = { 'auth connections': authConnections, proxies, profiles, browsers };
  const firstToken = Object.values(tokens)[0] ?? '<token>';
  const logs = Object.entries(browserLogs).flatMap(([browser, sources]) =>
    sources.map((log, i) => {
      const options =
        log.source === 'path'
          ? `--source path --path ${log.path}`
          : `--source supervisor --process ${log.supervisorProcess}`;
      return `  ${(i === 0 ? browser : '').padEnd(17)}${options}`;
    }),
  );
  return [
    `Browser Cloud sandbox listening on ${url}`,
    '',
    'Tokens (Authorization: Bearer <token>):',
    ...Object.entries(tokens).map(([name, token]) => `  ${name.padEnd(17)}${token}`),
    '',
    'Ids:',
    ...Object.entries(ids).map(([title, list]) => `  ${title.padEnd(17)}${list.join(', ') || '-'}`),
    '',
    ...(logs.length > 0 ? ['Browser logs (browser-cloud logs tail <browser id> <source>):', ...logs, ''] : []),
    `Inspection: ${url}${SANDBOX_PREFIX}/state   ${url}${SANDBOX_PREFIX}/flows/<connection id>`,
    `Try: curl -X POST -H 'Authorization: Bearer ${firstToken}' ${url}/auth/connections/${authConnections[0] ?? '<id>'}/login`,
    '',
    'Ctrl-C stops it.',
  ].join('\n');
}
