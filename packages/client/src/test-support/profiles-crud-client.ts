// The client generated from the document with profiles' create, list, read and delete added, for
// the read-back tests of the packages built on the client: they give it to the package's own
// imports of the client, as a build from that document would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ListShape, withProfilesCrud } from '../../../../openapi/test-support/profiles-crud.js';
import { scratchClient } from './scratch-client.js';

/** The document (its list answering as `shape` says), the client module generated from it in a temporary folder, and `remove` of that folder. */
export async function profilesCrudClient(shape: ListShape) {
  const document = withProfilesCrud(shape);
  const folder = mkdtempSync(join(tmpdir(), 'profiles-crud-'));
  const { client } = await scratchClient<typeof import('../index.js')>(document, folder);
  return { document, module: client, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
