import type { FixtureSummary } from './fixture/load-fixture.js';
import { SANDBOX_PREFIX } from './routes/sandbox-routes.js';

/** What the CLI prints on start: where it listens, the tokens and ids to try. */
export function banner(url: string, fixture: FixtureSummary): string {
  const list = (title: string, ids: string[]): string => `  ${title.padEnd(17)}${ids.join(', ') || '-'}`;
  const firstToken = Object.values(fixture.tokens)[0] ?? '<token>';
  return [
    `Browser Cloud sandbox listening on ${url}`,
    '',
    'Tokens (Authorization: Bearer <token>):',
    ...Object.entries(fixture.tokens).map(([name, token]) => `  ${name.padEnd(17)}${token}`),
    '',
    'Ids:',
    list('auth connections', fixture.authConnections),
    list('proxies', fixture.proxies),
    list('profiles', fixture.profiles),
    list('browsers', fixture.browsers),
    '',
    `Inspection: ${url}${SANDBOX_PREFIX}/state   ${url}${SANDBOX_PREFIX}/flows/<connection id>`,
    `Try: curl -X POST -H 'Authorization: Bearer ${firstToken}' ${url}/auth/connections/${fixture.authConnections[0] ?? '<id>'}/login`,
    '',
    'Ctrl-C stops it.',
  ].join('\n');
}
