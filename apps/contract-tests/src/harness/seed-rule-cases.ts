// The seed's rules (src/engine/seed-rules.ts) as vitest cases, in the order of their plan.
import { describe, it } from 'vitest';
import { STATEFUL_ONLY, skipTitle } from '../../scripts/skips.mjs';
import { type RuleContext, RuleNotCheckable, type SeedRule } from '../engine/seed-rules.js';
import { documentValidator, observedFetch } from './observed-fetch.js';
import { itWith, skipNow } from './resources.js';
import { target } from './target.js';

/**
 * One case per rule of `plan`, run in order and sharing what they learn. On the mock they are
 * skipped: it keeps no flows or names. A rule the target's state makes impossible to check now
 * (a flow already in progress before the run…) is skipped with that reason.
 */
export function describeSeedRules(title: string, plan: readonly SeedRule[]) {
  const context: RuleContext = {
    target: { baseUrl: target.directUrl, token: target.token, fetch: observedFetch },
    validator: documentValidator,
    resources: target.resources,
    state: new Map(),
  };
  // In the plan's order even when vitest shuffles (--sequence.shuffle): later rules build on earlier ones.
  describe(title, { shuffle: false }, () => {
    for (const rule of plan) {
      if (target.mode === 'mock') {
        it.skip(skipTitle(rule.rule, STATEFUL_ONLY), () => {});
        continue;
      }
      itWith(target.resources, rule.needs, rule.rule, async (_given, test) => {
        try {
          await rule.check(context);
        } catch (error) {
          if (error instanceof RuleNotCheckable) skipNow(test, error.message);
          throw error;
        }
      });
    }
  });
}
