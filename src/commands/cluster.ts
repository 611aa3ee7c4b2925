// `citus-migrate cluster up|down|status`: a throwaway coordinator + workers on 127.0.0.1 for
// trying the tool and for tests: containers of a citusdata/citus image on a container engine
// (cluster-docker.ts), or local PostgreSQL binaries with the citus extension.
import { resolve } from 'node:path';
import { readContainersFile } from '../cluster/docker-state.js';
import { chooseEngine, parseEngineOptions, type EngineProbe } from '../cluster/engine.js';
import { ClusterError, EXIT, UsageError } from '../errors.js';
import { initClusterDatabase } from '../cluster/database.js';
import {
  assertUsableDir,
  findPgInstall,
  localClusterStatus,
  readClusterFile,
  startLocalCluster,
  stopLocalCluster,
} from '../cluster/local.js';
import type { CommandIo } from './io.js';
import { DEFAULT_CLUSTER_DIR } from '../cluster/defaults.js';
import { plural } from '../util/plural.js';
import { runningClusterDifferences, type RequestedCluster, type RunningCluster } from '../cluster/running.js';

const urlOf = (port: number): string => `postgresql://postgres@127.0.0.1:${port}/postgres`;

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

/** Starts the cluster (or reports the one already running) and prints its URL on stdout. */
export async function clusterUp(
  opts: { dir?: string; workers?: string | number; port?: string | number; engine?: string; image?: string },
  io: CommandIo,
): Promise<number> {
  const { workers, port } = parseClusterOptions(opts);
  const { engine: requested, image } = parseEngineOptions(opts);
  const shown = opts.dir ?? DEFAULT_CLUSTER_DIR;
  const dir = resolve(io.cwd, shown);
  // Flags not given (undefined) never conflict with the cluster that runs.
  const asked: RequestedCluster = {
    engine: opts.engine === undefined ? undefined : requested,
    ...(opts.image === undefined ? {} : { image }),
    ...(port === undefined ? {} : { port }),
    ...(opts.workers === undefined ? {} : { workers }),
  };
  const inContainers = readContainersFile(dir);
  if (inContainers) {
    const { dockerRunning } = await import('./cluster-docker.js');
    if (await dockerRunning(inContainers)) {
      const running = { engine: 'docker', image: inContainers.image, workers: inContainers.nodes.length - 1 } as const;
      refuseDifferent(shown, { ...running, port: inContainers.nodes[0]!.hostPort }, asked);
      io.stderr(`a cluster is already running in ${shown} (containers of ${inContainers.image})\n`);
      const { hostUrl } = await import('../cluster/engine.js');
      io.stdout(`${hostUrl(inContainers.nodes[0]!.hostPort, 'postgres', resolve(dir, 'pgpass'))}\n`);
      return EXIT.ok;
    }
    throw new ClusterError(
      `${shown} holds a cluster that is not fully running: run citus-migrate cluster down --dir ${shown} first`,
      'cluster_stale',
    );
  }
  const existing = readClusterFile(dir);
  if (existing) {
    const status = localClusterStatus(dir);
    if (status.length > 0 && status.every((s) => s.running)) {
      refuseDifferent(
        shown,
        { engine: 'local', port: existing.nodes[0]!.port, workers: existing.nodes.length - 1 },
        asked,
      );
      io.stderr(`a cluster is already running in ${shown}\n`);
      io.stdout(`${urlOf(existing.nodes[0]!.port)}\n`);
      return EXIT.ok;
    }
    throw new ClusterError(
      `${shown} holds a cluster that is not fully running: run citus-migrate cluster down --dir ${shown} first`,
      'cluster_stale',
    );
  }
  assertUsableDir(dir);
  const install = findPgInstall(io.env);
  let probe: EngineProbe | undefined;
  if (requested !== 'local') probe = await (await import('../cluster/docker.js')).probeEngine(io.env);
  const local = install?.hasCitus
    ? { available: true, detail: install.bin }
    : {
        available: false,
        detail: install
          ? `the citus extension is not installed in ${install.pkglibdir}`
          : 'no PostgreSQL server binaries found',
      };
  const { engine, why } = chooseEngine(requested, probe, local);
  io.stderr(`engine: ${engine === 'docker' ? `containers (${image})` : 'local binaries'}: ${why}\n`);
  if (engine === 'docker')
    return (await import('./cluster-docker.js')).dockerUp(
      dir,
      shown,
      { workers, image, ...(port === undefined ? {} : { port }) },
      io,
    );
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
  io.stderr(`starting a Citus coordinator and ${plural(workers, 'worker')} in ${shown} ...\n`);
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
  io.stderr(
    `coordinator 127.0.0.1:${cluster.coordinator.port}, workers ${cluster.workers.map((w) => `127.0.0.1:${w.port}`).join(', ') || 'none'}\n`,
  );
  if (cluster.dataRoot !== cluster.dir)
    io.stderr(
      `data and logs in ${cluster.dataRoot} (initdb runs as the postgres OS user, who may not reach ${shown})\n`,
    );
  io.stdout(`${cluster.url()}\n`);
  return EXIT.ok;
}

/** Stops the cluster and removes exactly what `up` created. */
export async function clusterDown(opts: { dir?: string }, io: CommandIo): Promise<number> {
  const shown = opts.dir ?? DEFAULT_CLUSTER_DIR;
  const dir = resolve(io.cwd, shown);
  if (readContainersFile(dir)) return (await import('./cluster-docker.js')).dockerDown(dir, shown, io);
  if (!readClusterFile(dir)) {
    io.stderr(`no cluster in ${shown}\n`);
    return EXIT.ok;
  }
  const { stopped, kept } = await stopLocalCluster(dir, io.cwd);
  io.stderr(`stopped ${plural(stopped, 'node')} and removed the files cluster up created in ${shown}\n`);
  for (const k of kept) io.stderr(`kept ${k}: it holds files cluster up did not create\n`);
  return EXIT.ok;
}

/** Prints each node and whether it runs; exit 1 when any is down or there is no cluster. */
export async function clusterStatus(opts: { dir?: string }, io: CommandIo): Promise<number> {
  const shown = opts.dir ?? DEFAULT_CLUSTER_DIR;
  const dir = resolve(io.cwd, shown);
  if (readContainersFile(dir)) return (await import('./cluster-docker.js')).dockerStatus(dir, io);
  const c = readClusterFile(dir);
  if (!c) {
    io.stderr(`no cluster in ${shown} (start one with citus-migrate cluster up)\n`);
    return EXIT.error;
  }
  const status = localClusterStatus(dir);
  for (const s of status)
    io.stdout(`${s.node.name.padEnd(12)} 127.0.0.1:${s.node.port}  ${s.running ? 'running' : 'stopped'}\n`);
  io.stdout(`url          ${urlOf(c.nodes[0]!.port)}\n`);
  io.stdout(`data         ${c.dataRoot}\n`);
  return status.every((s) => s.running) ? EXIT.ok : EXIT.error;
}
