// `citus-migrate cluster up|down|status`: a throwaway coordinator + workers on 127.0.0.1 for
// trying the tool and for tests, from local PostgreSQL binaries with the citus extension.
import { resolve } from 'node:path';
import { ClusterError, EXIT, UsageError } from '../errors.js';
import { initClusterDatabase } from '../cluster/database.js';
import { assertUsableDir, findPgInstall, localClusterStatus, readClusterFile, startLocalCluster, stopLocalCluster } from '../cluster/local.js';
import type { CommandIo } from './io.js';
import { DEFAULT_CLUSTER_DIR } from '../cluster/defaults.js';
import { plural } from '../util/plural.js';

const urlOf = (port: number): string => `postgresql://postgres@127.0.0.1:${port}/postgres`;

/** Parses --workers (0..16) and --port (1..65535, with room for the workers after it); throws a UsageError. */
export function parseClusterOptions(opts: { workers?: string | number; port?: string | number }): { workers: number; port?: number } {
  const workers = Number(opts.workers ?? 2);
  if (!/^\d+$/.test(String(opts.workers ?? 2)) || workers > 16) throw new UsageError(`--workers must be a whole number from 0 to 16 (got ${JSON.stringify(String(opts.workers))})`);
  if (opts.port === undefined) return { workers };
  const port = Number(opts.port);
  if (!/^\d+$/.test(String(opts.port)) || port < 1 || port > 65535) throw new UsageError(`--port must be a whole number from 1 to 65535 (got ${JSON.stringify(String(opts.port))})`);
  if (port + workers > 65535) throw new UsageError(`--port ${port} leaves no room for ${plural(workers, 'worker')}: they listen on the ports right after the coordinator's, up to 65535`);
  return { workers, port };
}

/** Starts the cluster (or reports the one already running) and prints its URL on stdout. */
export async function clusterUp(opts: { dir?: string; workers?: string | number; port?: string | number }, io: CommandIo): Promise<number> {
  const { workers, port } = parseClusterOptions(opts);
  const shown = opts.dir ?? DEFAULT_CLUSTER_DIR;
  const dir = resolve(io.cwd, shown);
  const existing = readClusterFile(dir);
  if (existing) {
    const status = localClusterStatus(dir);
    if (status.length > 0 && status.every((s) => s.running)) {
      io.stderr(`a cluster is already running in ${shown}\n`);
      io.stdout(`${urlOf(existing.nodes[0]!.port)}\n`);
      return EXIT.ok;
    }
    throw new ClusterError(`${shown} holds a cluster that is not fully running: run citus-migrate cluster down --dir ${shown} first`, 'cluster_stale');
  }
  assertUsableDir(dir);
  const install = findPgInstall(io.env);
  if (!install) throw new ClusterError('cannot start a cluster: no PostgreSQL server binaries (initdb, pg_ctl) found; install postgresql-15 or set PG_BIN', 'cluster_unavailable');
  if (!install.hasCitus) {
    throw new ClusterError(`cannot start a Citus cluster: PostgreSQL is at ${install.bin}, but the citus extension is not installed (no citus.so in ${install.pkglibdir}, no citus.control in ${install.sharedir}/extension). Install Citus for this PostgreSQL, or point --database at an existing cluster.`, 'cluster_unavailable');
  }
  io.stderr(`starting a Citus coordinator and ${plural(workers, 'worker')} in ${shown} ...\n`);
  const cluster = await startLocalCluster({ citus: true, workers, install, dir, ...(port === undefined ? {} : { port }) });
  try {
    await initClusterDatabase(cluster, 'postgres');
  } catch (e) {
    await cluster.stop();
    throw e;
  }
  io.stderr(`coordinator 127.0.0.1:${cluster.coordinator.port}, workers ${cluster.workers.map((w) => `127.0.0.1:${w.port}`).join(', ') || 'none'}\n`);
  if (cluster.dataRoot !== cluster.dir) io.stderr(`data and logs in ${cluster.dataRoot} (initdb runs as the postgres OS user, who may not reach ${shown})\n`);
  io.stdout(`${cluster.url()}\n`);
  return EXIT.ok;
}

/** Stops the cluster and removes exactly what `up` created. */
export async function clusterDown(opts: { dir?: string }, io: CommandIo): Promise<number> {
  const shown = opts.dir ?? DEFAULT_CLUSTER_DIR;
  const dir = resolve(io.cwd, shown);
  if (!readClusterFile(dir)) { io.stderr(`no cluster in ${shown}\n`); return EXIT.ok; }
  const { stopped, kept } = await stopLocalCluster(dir, io.cwd);
  io.stderr(`stopped ${plural(stopped, 'node')} and removed the files cluster up created in ${shown}\n`);
  for (const k of kept) io.stderr(`kept ${k}: it holds files cluster up did not create\n`);
  return EXIT.ok;
}

/** Prints each node and whether it runs; exit 1 when any is down or there is no cluster. */
export async function clusterStatus(opts: { dir?: string }, io: CommandIo): Promise<number> {
  const shown = opts.dir ?? DEFAULT_CLUSTER_DIR;
  const dir = resolve(io.cwd, shown);
  const c = readClusterFile(dir);
  if (!c) { io.stderr(`no cluster in ${shown} (start one with citus-migrate cluster up)\n`); return EXIT.error; }
  const status = localClusterStatus(dir);
  for (const s of status) io.stdout(`${s.node.name.padEnd(12)} 127.0.0.1:${s.node.port}  ${s.running ? 'running' : 'stopped'}\n`);
  io.stdout(`url          ${urlOf(c.nodes[0]!.port)}\n`);
  io.stdout(`data         ${c.dataRoot}\n`);
  return status.every((s) => s.running) ? EXIT.ok : EXIT.error;
}
