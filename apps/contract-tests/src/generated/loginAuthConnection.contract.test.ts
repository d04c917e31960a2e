import { describe } from 'vitest';
import { LOGIN_FLOW_PLAN } from '../engine/seed-rules.js';
import { describeGeneratedCases } from '../harness/generated-cases.js';
import { describeSeedRules } from '../harness/seed-rule-cases.js';

// The planned flow cases first: they need the run's first login on CONTRACT_CONNECTION_ID and
// CONTRACT_REAUTH_CONNECTION_ID, and the generated valid cases log in on both too. No other file
// starts a flow on them, and this suite keeps its order under --sequence.shuffle, so the plan
// holds whatever the order of the files, the shard or the seed.
describe('loginAuthConnection', { shuffle: false }, () => {
  describeSeedRules('rules of the seed (planned: first logins, then the conflict)', LOGIN_FLOW_PLAN);
  describeGeneratedCases('loginAuthConnection', 'generated cases');
});
