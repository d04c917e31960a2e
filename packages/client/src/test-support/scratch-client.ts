// The client built from a document of a test's own: its types, validators and operations generated
// as `npm run generate` does, bundled with the package's source into a module in `folder`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { OpenApiDocument } from '@browser-cloud/openapi-document';
import { generateArtifacts as generateTypes } from '@browser-cloud/tooling/generate-artifacts';
import { build } from 'esbuild';
import { generateArtifacts as generateClient } from '../../scripts/client-operations.mjs';

const SOURCE = fileURLToPath(new URL('../', import.meta.url));

/** The module and the generated files (by path) of the client of `document`, built in `folder`. */
export async function scratchClient<Module>(document: OpenApiDocument, folder: string) {
  const documentPath = join(folder, 'openapi.json');
  writeFileSync(documentPath, JSON.stringify(document));
  const files = [...(await generateTypes(documentPath)), ...(await generateClient(documentPath))];
  const generated: Record<string, string> = Object.fromEntries(files.map(({ path, contents }) => [path, contents]));
  const validators = files.find(({ path }) => path.endsWith(join('validators', 'index.ts')))!;
  // The package's source, with the generated files and the validators module of this document.
  const bundle = await build({
    stdin: { contents: "export * from './index.ts';", resolveDir: SOURCE, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'this-document',
        setup(setup) {
          setup.onResolve({ filter: /^@browser-cloud\/api-types\/validators$/ }, () => ({ path: validators.path }));
          // A generated module the repository's document has no file for (a resource of this document only).
          setup.onResolve({ filter: /^\.\.?\/.*\.js$/ }, ({ path, resolveDir }) => {
            const file = join(resolveDir, path.replace(/\.js$/, '.ts'));
            return generated[file] === undefined ? undefined : { path: file };
          });
          setup.onLoad({ filter: /\.ts$/ }, ({ path }) =>
            generated[path] === undefined ? undefined : { contents: generated[path], loader: 'ts' },
          );
        },
      },
    ],
  });
  const file = join(folder, 'client.mjs');
  writeFileSync(file, bundle.outputFiles[0]!.contents);
  return { client: (await import(pathToFileURL(file).href)) as Module, generated, source: SOURCE };
}
