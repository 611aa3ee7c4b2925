// `citus-migrate cluster up|down|status`: a throwaway coordinator + workers on 127.0.0.1 for
// trying the tool and for tests, from local PostgreSQL binaries with the citus extension.
import { resolve } from 'node:path';
import { CmError, EXIT } from '../errors.js';
import { initClusterDatabase } from '../cluster/database.js';
import { findPgInstall, localClusterStatus, readClusterFile, startLocalCluster, stopLocalCluster } from '../cluster/local.js';
import type { CommandIo } from './io.js';
import { DEFAULT_CLUSTER_DIR } from '../cluster/defaults.js';


const urlOf = (port: number): string => `postgresql://postgres@127.0.0.1:${port}/postgres`;

/** Starts the cluster (or reports the one already running) and prints its URL on stdout. */
export async function clusterUp(opts: { dir?: string; workers?: string | number }, io: CommandIo): Promise<number> {
  const dir = resolve(io.cwd, opts.dir ?? DEFAULT_CLUSTER_DIR);
  const existing = readClusterFile(dir);
  if (existing) {
    const status = localClusterStatus(dir);
    if (status.length > 0 && status.every((s) => s.running)) {
      io.stderr(`a cluster is already running in ${opts.dir ?? DEFAULT_CLUSTER_DIR}\n`);
      io.stdout(`${urlOf(existing.nodes[0]!.port)}\n`);
      return EXIT.ok;
    }
    throw new CmError(`${opts.dir ?? DEFAULT_CLUSTER_DIR} holds a cluster that is not fully running: run citus-migrate cluster down first`, 'cluster_stale', EXIT.error);
  }
  const install = findPgInstall(io.env);
  if (!install) throw new CmError('cannot start a cluster: no PostgreSQL server binaries (initdb, pg_ctl) found; install postgresql-15 or set PG_BIN', 'cluster_unavailable', EXIT.error);
  if (!install.hasCitus) {
    throw new CmError(`cannot start a Citus cluster: PostgreSQL is at ${install.bin}, but the citus extension is not installed (no citus.so in ${install.pkglibdir}, no citus.control in ${install.sharedir}/extension). Install Citus for this PostgreSQL, or point --database at an existing cluster.`, 'cluster_unavailable', EXIT.error);
  }
  const workers = Number(opts.workers ?? 2);
  if (!Number.isInteger(workers) || workers < 0 || workers > 16) throw new CmError('--workers must be 0..16', 'usage', EXIT.usage);
  io.stderr(`starting a Citus coordinator and ${workers} worker(s) in ${opts.dir ?? DEFAULT_CLUSTER_DIR} ...\n`);
  const cluster = await startLocalCluster({ citus: true, workers, install, dir });
  try {
    await initClusterDatabase(cluster, 'postgres');
  } catch (e) {
    cluster.stop();
    throw e;
  }
  io.stderr(`coordinator 127.0.0.1:${cluster.coordinator.port}, workers ${cluster.workers.map((w) => `127.0.0.1:${w.port}`).join(', ') || 'none'}\n`);
  io.stdout(`${cluster.url()}\n`);
  return EXIT.ok;
}

/** Stops the cluster and removes its data. */
export async function clusterDown(opts: { dir?: string }, io: CommandIo): Promise<number> {
  const dir = resolve(io.cwd, opts.dir ?? DEFAULT_CLUSTER_DIR);
  if (!readClusterFile(dir)) { io.stderr(`no cluster in ${opts.dir ?? DEFAULT_CLUSTER_DIR}\n`); return EXIT.ok; }
  const n = stopLocalCluster(dir);
  io.stderr(`stopped ${n} node(s) and removed ${opts.dir ?? DEFAULT_CLUSTER_DIR}\n`);
  return EXIT.ok;
}

/** Prints each node and whether it runs; exit 1 when any is down or there is no cluster. */
export async function clusterStatus(opts: { dir?: string }, io: CommandIo): Promise<number> {
  const dir = resolve(io.cwd, opts.dir ?? DEFAULT_CLUSTER_DIR);
  const c = readClusterFile(dir);
  if (!c) { io.stderr(`no cluster in ${opts.dir ?? DEFAULT_CLUSTER_DIR} (start one with citus-migrate cluster up)\n`); return EXIT.error; }
  const status = localClusterStatus(dir);
  for (const s of status) io.stdout(`${s.node.name.padEnd(12)} 127.0.0.1:${s.node.port}  ${s.running ? 'running' : 'stopped'}\n`);
  io.stdout(`url          ${urlOf(c.nodes[0]!.port)}\n`);
  return status.every((s) => s.running) ? EXIT.ok : EXIT.error;
}
