/**
 * The seed's rules of rename and of the log stream, on any server, with the operations of the
 * document only (src/engine/seed-rules.ts). The login rules run first in
 * src/generated/loginAuthConnection.contract.test.ts, which shares their connections.
 */
import { afterAll } from 'vitest';
import { RENAME_PLAN, STREAM_PLAN } from './engine/seed-rules.js';
import { restoreProfileName } from './harness/clients.js';
import { describeSeedRules } from './harness/seed-rule-cases.js';

afterAll(restoreProfileName);

describeSeedRules('renameProfile rules of the seed', RENAME_PLAN);
describeSeedRules('streamBrowserLogs rules of the seed', STREAM_PLAN);
