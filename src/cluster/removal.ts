// What `cluster down` (and a failed `up`) may remove: exactly the paths cluster.json says `up`
// created, and only when each is one `up` could have made. A cluster.json that was edited, copied
// or written by something else is refused before anything is stopped or removed.
import { existsSync, lstatSync } from 'node:fs';
import { readdir, rm, rmdir } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { ClusterError } from '../errors.js';
import { CLUSTER_FILE, type ClusterState } from './state-file.js';

/** What is at a path now: nothing, a file, a PostgreSQL data directory, another directory, or something else. */
export type PathKind = 'missing' | 'file' | 'pgdata' | 'dir' | 'other';

/** Prefix of the folder `up` makes under the system temp dir for the data when run as root. */
export const DATA_ROOT_PREFIX = 'citus-migrate-data-';

const NODE_NAME = /^(coordinator|worker[1-9][0-9]{0,2})$/;

/** Whether `child` is strictly inside `parent` (both absolute). */
export function isInside(child: string, parent: string): boolean {
  const r = relative(parent, child);
  return r !== '' && r !== '..' && !r.startsWith('../') && !isAbsolute(r);
}

const isNormalAbsolute = (p: string): boolean => isAbsolute(p) && resolve(p) === p;

/** The log file `up` writes for a node. */
export const logFile = (dataRoot: string, name: string): string => join(dataRoot, `${name}.log`);

/** Every path `up` can create for this cluster, with what it must be: cluster.json, each node's data dir and log. */
export function expectedPaths(dir: string, state: ClusterState): Map<string, 'file' | 'pgdata'> {
  const m = new Map<string, 'file' | 'pgdata'>();
  for (const n of state.nodes) {
    m.set(join(state.dataRoot, n.name), 'pgdata');
    m.set(logFile(state.dataRoot, n.name), 'file');
  }
  m.set(join(dir, CLUSTER_FILE), 'file');
  return m;
}

/** Why removing what `state` lists from `dir` could touch something `up` did not create; empty when safe (pure). */
export function removalProblems(
  dir: string,
  state: ClusterState,
  cwd: string,
  kindOf: (path: string) => PathKind,
): string[] {
  const problems: string[] = [];
  const { dataRoot } = state;
  const ownDataRoot =
    isNormalAbsolute(dataRoot) &&
    dataRoot !== '/' &&
    basename(dataRoot).startsWith(DATA_ROOT_PREFIX) &&
    state.created.dirs.includes(dataRoot);
  if (dataRoot !== dir && !ownDataRoot)
    problems.push(`its data folder ${dataRoot} is neither ${dir} nor a ${DATA_ROOT_PREFIX}* folder cluster up made`);
  for (const n of state.nodes) {
    if (!NODE_NAME.test(n.name))
      problems.push(`node name ${JSON.stringify(n.name)} is not one cluster up gives (coordinator, worker1, ...)`);
    else if (n.dataDir !== join(dataRoot, n.name))
      problems.push(`node ${n.name} has its data in ${n.dataDir}, not in ${join(dataRoot, n.name)}`);
    if (!Number.isInteger(n.port) || n.port < 1 || n.port > 65535) problems.push(`node ${n.name} has port ${n.port}`);
  }
  const expected = expectedPaths(dir, state);
  for (const p of state.created.paths) {
    const want = expected.get(p);
    if (!isNormalAbsolute(p) || want === undefined) {
      problems.push(`it lists ${p}, which cluster up never creates`);
      continue;
    }
    if (p === cwd || isInside(cwd, p)) {
      problems.push(`it lists ${p}, which holds the current folder`);
      continue;
    }
    const kind = kindOf(p);
    if (kind !== 'missing' && kind !== want)
      problems.push(
        `it lists ${p}, which is ${kind === 'dir' ? 'a folder that is not a PostgreSQL data directory' : kind === 'pgdata' ? 'a folder, not a file' : 'not a plain file'}`,
      );
  }
  for (const d of state.created.dirs) {
    const ok = isNormalAbsolute(d) && d !== '/' && (d === dir || isInside(dir, d) || (d === dataRoot && ownDataRoot));
    if (!ok)
      problems.push(`it lists the folder ${d}, which is neither ${dir}, one of its parents, nor its data folder`);
  }
  return problems;
}

/** What is at `path` now (lstat: a symlink is never followed). */
export function pathKind(path: string): PathKind {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return 'missing';
  }
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return existsSync(join(path, 'PG_VERSION')) ? 'pgdata' : 'dir';
  return 'other';
}

/** Throws when `state` lists anything `up` could not have created (nothing is touched). */
export function assertRemovable(dir: string, state: ClusterState, cwd: string): void {
  const problems = removalProblems(dir, state, resolve(cwd), pathKind);
  if (problems.length === 0) return;
  const file = join(dir, CLUSTER_FILE);
  throw new ClusterError(
    `refusing to remove anything: ${file} was not written by citus-migrate cluster up, or was edited since:\n${problems.map((p) => `  - ${p}`).join('\n')}\nStop the nodes with pg_ctl and remove their folders by hand.`,
    'cluster_file_untrusted',
    { path: file, problems },
  );
}

/**
 * Removes the paths `up` created (checked by assertRemovable first), then each folder it made,
 * innermost first, if that is now empty. Returns the folders it kept because they are not empty.
 */
export async function removeCreated(dir: string, state: ClusterState, cwd: string): Promise<string[]> {
  assertRemovable(dir, state, cwd);
  const here = resolve(cwd);
  // Asynchronous: a data directory with many databases takes seconds to remove, and callers such
  // as the test suite's teardown must keep serving their event loop meanwhile.
  const stateFile = join(dir, CLUSTER_FILE);
  await Promise.all(
    state.created.paths
      .filter((p) => p !== stateFile)
      .map(async (p) => {
        const kind = pathKind(p);
        if (kind === 'pgdata') await rm(p, { recursive: true, force: true });
        else if (kind === 'file') await rm(p, { force: true });
      }),
  );
  // cluster.json last, so that an interrupted removal can be run again.
  if (state.created.paths.includes(stateFile) && pathKind(stateFile) === 'file') await rm(stateFile, { force: true });
  const kept: string[] = [];
  for (const d of [...state.created.dirs].reverse()) {
    if (pathKind(d) !== 'dir' && pathKind(d) !== 'pgdata') continue;
    // Never the folder we run in, nor one holding it: an empty folder costs nothing to keep.
    if (d === here || isInside(here, d)) continue;
    if ((await readdir(d)).length > 0) {
      kept.push(d);
      continue;
    }
    await rmdir(d);
  }
  return kept;
}
