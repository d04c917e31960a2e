// The runtime matrix installs its runtimes (apps/runtime-matrix/runtimes) once per lock and
// stamps the install with the lock's digest: `run-matrix.mjs` skips an install whose stamp
// matches, and the scratch copies of the API workflow test share one that does.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The stamp file of the runtimes installed in `runtimesDir`, and the digest of the lock there now. */
export function runtimesStamp(runtimesDir) {
  return {
    path: join(runtimesDir, 'node_modules', '.installed-lock-sha256'),
    digest: createHash('sha256')
      .update(readFileSync(join(runtimesDir, 'package-lock.json')))
      .digest('hex'),
  };
}
