// The repo's workspaces: their manifests, and the publishable ones (not `private`) packed into
// tarballs, as `npm run pack` packs them and the install tests and the runtime matrix install them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** `package.json` paths of the workspaces (`dir/*` patterns, the form the root uses). */
export function workspaceManifests(root) {
  const { workspaces = [] } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return workspaces
    .flatMap((pattern) => {
      if (!pattern.endsWith('/*')) return [join(root, pattern, 'package.json')];
      const dir = join(root, pattern.slice(0, -2));
      return readdirSync(dir).map((name) => join(dir, name, 'package.json'));
    })
    .filter((path) => existsSync(path));
}

/** The names of the workspaces that are published (not `private`), in workspace order. */
export function publishablePackages(root) {
  const manifests = workspaceManifests(root).map((path) => JSON.parse(readFileSync(path, 'utf8')));
  return manifests.filter((manifest) => manifest.private !== true).map((manifest) => manifest.name);
}

/**
 * `npm pack` of the publishable packages into `destination`, as built (no `prepack`: the caller
 * has built them). @returns each package's tarball path, by package name.
 */
export function packPackages(root, destination) {
  mkdirSync(destination, { recursive: true });
  const names = publishablePackages(root);
  const output = execFileSync(
    'npm',
    ['pack', ...names.flatMap((name) => ['-w', name]), '--ignore-scripts', '--json', '--pack-destination', destination],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 },
  );
  return new Map(JSON.parse(output).map(({ name, filename }) => [name, join(destination, filename)]));
}

/**
 * A fresh consumer project in `dir` (an ES module package): the packed packages installed from
 * their tarballs, their own dependencies from the npm registry or its cache, `devDependencies`
 * beside them. @returns each package's tarball path, by package name.
 */
export function installPacked(root, dir, devDependencies = {}) {
  const tarballs = packPackages(root, dir);
  const dependencies = Object.fromEntries([...tarballs].map(([name, path]) => [name, `file:./${basename(path)}`]));
  const manifest = { name: 'browser-cloud-consumer', private: true, type: 'module', dependencies, devDependencies };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  const args = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'];
  execFileSync('npm', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  return tarballs;
}
