// Preloaded into a process under test (NODE_OPTIONS=--import=…, see `maxRssReport`): its peak
// resident memory, in KiB, written to MAX_RSS_FILE when it exits.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env['MAX_RSS_FILE'];
  if (file) writeFileSync(file, String(process.resourceUsage().maxRSS));
});
