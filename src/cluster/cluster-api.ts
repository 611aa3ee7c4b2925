// The cluster library: a throwaway coordinator + workers on 127.0.0.1 for trying the tool and
// for tests: containers of a citusdata/citus image on a container engine (docker-cluster.ts), or
// local PostgreSQL binaries with the citus extension. `cluster up|down|status` print what these return.
import { resolve } from 'node:path';
import { readContainersFile } from './docker-state.js';
import { chooseEngine, hostUrl, parseEngineOptions, type EngineProbe } from './engine.js';
import { ClusterError, UsageError } from '../errors.js';
import { initClusterDatabase } from './database.js';
import {
  assertUsableDir,
  findPgInstall,
  localClusterStatus,
  readClusterFile,
  startLocalCluster,
  stopLocalCluster,
} from './local.js';
import { DEFAULT_CLUSTER_DIR } from './defaults.js';
import { plural } from '../util/plural.js';
import { runningClusterDifferences, type RequestedCluster, type RunningCluster } from './running.js';
import type {
  ClusterNote,
  ClusterPlace,
  ClusterStatusResult,
  ClusterUpOptions,
  ClusterUpResult,
} from './cluster-types.js';

const urlOf = (port: number): string => `postgresql://postgres@127.0.0.1:${port}/postgres`;
const place = (p: ClusterPlace) => {
  const shown = p.dir ?? DEFAULT_CLUSTER_DIR;
  return { shown, dir: resolve(p.cwd ?? process.cwd(), shown) };
};
const silent: ClusterNote = () => undefined;
const stale = (shown: string) =>
  new ClusterError(
    `${shown} holds a cluster that is not fully running: run citus-migrate cluster down --dir ${shown} first`,
    'cluster_stale',
  );

/** Refuses (exit 1) flags that describe another cluster than the one running in the folder. */
function refuseDifferent(shown: string, running: RunningCluster, asked: RequestedCluster): void {
  const diff = runningClusterDifferences(running, asked);
  if (diff.length === 0) return;
  throw new ClusterError(
    `a cluster is already running in ${shown}, and not the one asked for: ${diff.join('; ')}. Run citus-migrate cluster down --dir ${shown} first, or pass another --dir`,
    'cluster_running_differs',
    { differences: diff },
  );
}

/** Parses --workers (0..16) and --port (1..65535, with room for the workers after it); throws a UsageError. */
export function parseClusterOptions(opts: { workers?: string | number; port?: string | number }): {
  workers: number;
  port?: number;
} {
  const workers = Number(opts.workers ?? 2);
  if (!/^\d+$/.test(String(opts.workers ?? 2)) || workers > 16)
    throw new UsageError(`--workers must be a whole number from 0 to 16 (got ${JSON.stringify(String(opts.workers))})`);
  if (opts.port === undefined) return { workers };
  const port = Number(opts.port);
  if (!/^\d+$/.test(String(opts.port)) || port < 1 || port > 65535)
    throw new UsageError(`--port must be a whole number from 1 to 65535 (got ${JSON.stringify(String(opts.port))})`);
  if (port + workers > 65535)
    throw new UsageError(
      `--port ${port} leaves no room for ${plural(workers, 'worker')}: they listen on the ports right after the coordinator's, up to 65535`,
    );
  return { workers, port };
}

/** The cluster already running in the folder (refusing one that differs from the request), if any. */
async function alreadyRunning(
  dir: string,
  shown: string,
  asked: RequestedCluster,
  note: ClusterNote,
): Promise<ClusterUpResult | undefined> {
  const inContainers = readContainersFile(dir);
  if (inContainers) {
    const { dockerRunning } = await import('./docker-cluster.js');
    if (!(await dockerRunning(inContainers))) throw stale(shown);
    const running = { engine: 'docker', image: inContainers.image, workers: inContainers.nodes.length - 1 } as const;
    refuseDifferent(shown, { ...running, port: inContainers.nodes[0]!.hostPort }, asked);
    note(`a cluster is already running in ${shown} (containers of ${inContainers.image})`);
    const url = hostUrl(inContainers.nodes[0]!.hostPort, 'postgres', resolve(dir, 'pgpass'));
    return { status: 'running', engine: 'docker', url };
  }
  const existing = readClusterFile(dir);
  if (!existing) return undefined;
  const status = localClusterStatus(dir);
  if (status.length === 0 || !status.every((s) => s.running)) throw stale(shown);
  const port = existing.nodes[0]!.port;
  refuseDifferent(shown, { engine: 'local', port, workers: existing.nodes.length - 1 }, asked);
  note(`a cluster is already running in ${shown}`);
  return { status: 'running', engine: 'local', url: urlOf(port) };
}

/** Starts the cluster in the folder, or returns the one already running there. Progress goes to `note`. */
export async function clusterUp(opts: ClusterUpOptions = {}, note: ClusterNote = silent): Promise<ClusterUpResult> {
  const { workers, port } = parseClusterOptions(opts);
  const { engine: requested, image } = parseEngineOptions(opts);
  const { shown, dir } = place(opts);
  const env = opts.env ?? process.env;
  // Flags not given (undefined) never conflict with the cluster that runs.
  const asked: RequestedCluster = {
    engine: opts.engine === undefined ? undefined : requested,
    ...(opts.image === undefined ? {} : { image }),
    ...(port === undefined ? {} : { port }),
    ...(opts.workers === undefined ? {} : { workers }),
  };
  const running = await alreadyRunning(dir, shown, asked, note);
  if (running) return running;
  assertUsableDir(dir);
  const install = findPgInstall(env);
  let probe: EngineProbe | undefined;
  if (requested !== 'local') probe = await (await import('./docker.js')).probeEngine(env);
  const local = install?.hasCitus
    ? { available: true, detail: install.bin }
    : {
        available: false,
        detail: install
          ? `the citus extension is not installed in ${install.pkglibdir}`
          : 'no PostgreSQL server binaries found',
      };
  const { engine, why } = chooseEngine(requested, probe, local);
  note(`engine: ${engine === 'docker' ? `containers (${image})` : 'local binaries'}: ${why}`);
  if (engine === 'docker') {
    const { dockerUp } = await import('./docker-cluster.js');
    const url = await dockerUp(dir, shown, { workers, image, ...(port === undefined ? {} : { port }) }, note);
    return { status: 'started', engine, url };
  }
  if (!install)
    throw new ClusterError(
      'cannot start a cluster: no PostgreSQL server binaries (initdb, pg_ctl) found; install postgresql-15 or set PG_BIN',
      'cluster_unavailable',
    );
  if (!install.hasCitus) {
    throw new ClusterError(
      `cannot start a Citus cluster: PostgreSQL is at ${install.bin}, but the citus extension is not installed (no citus.so in ${install.pkglibdir}, no citus.control in ${install.sharedir}/extension). Install Citus for this PostgreSQL, or point --database at an existing cluster.`,
      'cluster_unavailable',
    );
  }
  note(`starting a Citus coordinator and ${plural(workers, 'worker')} in ${shown} ...`);
  const cluster = await startLocalCluster({
    citus: true,
    workers,
    install,
    dir,
    ...(port === undefined ? {} : { port }),
  });
  try {
    await initClusterDatabase(cluster, 'postgres');
  } catch (e) {
    await cluster.stop();
    throw e;
  }
  note(
    `coordinator 127.0.0.1:${cluster.coordinator.port}, workers ${cluster.workers.map((w) => `127.0.0.1:${w.port}`).join(', ') || 'none'}`,
  );
  if (cluster.dataRoot !== cluster.dir)
    note(`data and logs in ${cluster.dataRoot} (initdb runs as the postgres OS user, who may not reach ${shown})`);
  return { status: 'started', engine: 'local', url: cluster.url() };
}

/** Stops the cluster and removes exactly what `up` created; false when the folder holds none. */
export async function clusterDown(opts: ClusterPlace = {}, note: ClusterNote = silent): Promise<boolean> {
  const { shown, dir } = place(opts);
  if (readContainersFile(dir)) {
    await (await import('./docker-cluster.js')).dockerDown(dir, shown, note);
    return true;
  }
  if (!readClusterFile(dir)) return false;
  const { stopped, kept } = await stopLocalCluster(dir, opts.cwd ?? process.cwd());
  note(`stopped ${plural(stopped, 'node')} and removed the files cluster up created in ${shown}`);
  for (const k of kept) note(`kept ${k}: it holds files cluster up did not create`);
  return true;
}

/** Each node of the cluster in the folder and whether it runs; undefined when the folder holds none. */
export async function clusterStatus(opts: ClusterPlace = {}): Promise<ClusterStatusResult | undefined> {
  const { dir } = place(opts);
  if (readContainersFile(dir)) return (await import('./docker-cluster.js')).dockerStatus(dir);
  const c = readClusterFile(dir);
  if (!c) return undefined;
  const nodes = localClusterStatus(dir).map((s) => ({
    name: s.node.name,
    address: `127.0.0.1:${s.node.port}`,
    state: s.running ? 'running' : 'stopped',
    running: s.running,
  }));
  return {
    engine: 'local',
    nodes,
    url: urlOf(c.nodes[0]!.port),
    data: c.dataRoot,
    running: nodes.every((n) => n.running),
  };
}
