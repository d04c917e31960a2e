import type { ErrorObject } from '@browser-cloud/api-types';

/**
 * One line per broken rule, `<field>: <rule>`. Interim: the shared renderer of
 * `@browser-cloud/api-types` replaces this when it lands, so every package words a rule alike.
 */
export function renderIssues(errors: readonly ErrorObject[], root: string): string[] {
  return errors
    .filter((e) => e.keyword !== 'if')
    .map((e) => {
      const p = e.params as Record<string, unknown>;
      const named = p['missingProperty'] ?? p['additionalProperty'];
      const field = `${root}${e.instancePath.replace(/\//g, '.')}${named === undefined ? '' : `.${String(named)}`}`;
      const asked = Object.entries(p)
        .filter(([k]) => k !== 'missingProperty' && k !== 'additionalProperty')
        .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
        .join(', ');
      return `${field}: breaks the "${e.keyword}" rule${asked ? ` (${asked})` : ''}`;
    });
}
