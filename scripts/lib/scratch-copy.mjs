// A scratch copy of the repo, for the scripts that change it to see what follows (the API
// workflow test, the scale benchmark), and the commands they run there.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { runtimesStamp } from '@browser-cloud/tooling/runtimes-stamp';

/**
 * Runs `command` to its end; its output goes through, or is returned when `capture`.
 * @throws Error naming the command and its exit (with its output when captured) when it fails.
 */
export function run(command, args, { cwd, capture = false, env = {} } = {}) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', REDOCLY_TELEMETRY: 'off', ...env },
  });
  if (result.status !== 0) {
    const output = capture ? `\n${result.stdout}${result.stderr}` : '';
    throw new Error(`\`${command} ${args.join(' ')}\` failed (exit ${result.status ?? result.signal})${output}`);
  }
  return result.stdout ?? '';
}

const IDENTITY = ['-c', 'user.name=api-workflow', '-c', 'user.email=api-workflow@localhost'];
export const git = (cwd, ...args) => run('git', [...IDENTITY, ...args], { cwd, capture: true });

/**
 * The files of `from`'s working tree (committed or not, but ignored ones) copied to `to`, committed
 * there in a repository of its own, so that `git status` there shows what a script changed. The
 * copy needs an install of its own (`installIn`): workspaces are symlinked inside node_modules, so a
 * shared node_modules would run the original packages.
 */
export function copyWorkingTree(from, to) {
  const files = git(from, 'ls-files', '-z', '--cached', '--others', '--exclude-standard').split('\0');
  for (const file of files) {
    if (file !== '' && existsSync(join(from, file)))
      cpSync(join(from, file), join(to, file), { verbatimSymlinks: true });
  }
  git(to, 'init', '-q');
  git(to, 'add', '-A');
  git(to, 'commit', '-q', '-m', 'scratch copy');
}

/** The runtime matrix's own install (Node 22 and 24, Bun, Deno, workerd), relative to a checkout. */
const RUNTIMES = join('apps', 'runtime-matrix', 'runtimes');

/**
 * Links the scratch copy's runtime-matrix install to the one at `from` when that one was made from
 * the same lock (its stamp, which `run-matrix.mjs` writes, holds the lock's digest): the runtimes
 * are the same files, and they are the matrix's largest download. Otherwise the matrix installs
 * its own, as in a fresh clone. True when linked.
 */
export function shareRuntimes(from, to) {
  const installed = join(from, RUNTIMES, 'node_modules');
  const stamp = runtimesStamp(join(from, RUNTIMES)).path;
  if (!existsSync(stamp) || existsSync(join(to, RUNTIMES, 'node_modules'))) return false;
  if (readFileSync(stamp, 'utf8') !== runtimesStamp(join(to, RUNTIMES)).digest) return false;
  symlinkSync(installed, join(to, RUNTIMES, 'node_modules'), 'dir');
  // `node_modules/` in .gitignore matches folders only: git would list the link as a new file.
  if (existsSync(join(to, '.git', 'info')))
    appendFileSync(join(to, '.git', 'info', 'exclude'), `/${RUNTIMES}/node_modules\n`);
  return true;
}

/**
 * Whether `root`'s node_modules is what `npm ci` makes of `lock` (a package-lock.json's JSON): npm's
 * record of the installed tree (node_modules/.package-lock.json) holds every package of the lock
 * as the lock has it, and leaves out only optional ones (other platforms' builds).
 */
export function installedFromLock(root, lock) {
  const record = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(record)) return false;
  const installed = JSON.parse(readFileSync(record, 'utf8')).packages ?? {};
  const wanted = JSON.parse(lock).packages ?? {};
  return Object.entries(wanted).every(([path, entry]) =>
    path in installed ? isDeepStrictEqual(installed[path], entry) : path === '' || entry.optional === true,
  );
}

/**
 * The scratch copy's install: `from`'s node_modules folders copied when `from` is installed from
 * the same lock (workspaces are linked by relative paths, so the copy links the scratch copy's
 * own, and copying is much faster than installing), otherwise `npm ci` from npm's cache where it can.
 * @returns how it was installed, for the log.
 */
export function installIn(dir, from = undefined) {
  const lock = readFileSync(join(dir, 'package-lock.json'), 'utf8');
  if (from === undefined || !installedFromLock(from, lock)) {
    run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir });
    return 'npm ci';
  }
  const packages = Object.entries(JSON.parse(lock).packages ?? {});
  const nested = packages
    .map(([path]) => path)
    .filter((path) => path.includes('node_modules/') && !path.startsWith('node_modules/'))
    .map((path) => path.slice(0, path.indexOf('node_modules/') + 'node_modules'.length));
  const folders = [...new Set(['node_modules', ...nested])];
  // What tools cache in node_modules (Vite's and others') is left out, as a fresh install has none.
  const filter = (source) => !/[\\/]node_modules[\\/](\.vite|\.vite-temp|\.cache)$/.test(source);
  for (const folder of folders) {
    cpSync(join(from, folder), join(dir, folder), { recursive: true, verbatimSymlinks: true, filter });
  }
  // A workspace linked by an absolute path would run `from`'s package: then install instead.
  const links = packages.filter(([, entry]) => entry.link === true).map(([path]) => join(dir, path));
  if (links.some((link) => !realpathSync(link).startsWith(`${realpathSync(dir)}${sep}`))) {
    for (const folder of folders) rmSync(join(dir, folder), { recursive: true, force: true });
    return installIn(dir);
  }
  return `copied ${from}'s node_modules, installed from the same lock`;
}

/** turbo's cache of the checkout at `root`: beside its main checkout's root (for a worktree: the common .git's parent). */
export function sharedTurboCache(root) {
  const common = git(root, 'rev-parse', '--path-format=absolute', '--git-common-dir').trim();
  return { TURBO_CACHE_DIR: join(dirname(common), '.turbo', 'cache') };
}
