// Throwaway PostgreSQL / Citus clusters on 127.0.0.1 from local server binaries: a coordinator
// and N workers. cluster.json (state-file.ts) records what was created; removal.ts removes it.
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  statSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { ClusterError } from '../errors.js';
import { findPgInstall, isRoot, postgresIds, runServerTool, runServerToolAsync, type PgInstall } from './install.js';
import { DATA_ROOT_PREFIX, assertRemovable, logFile, removeCreated } from './removal.js';
import { CLUSTER_FILE, readClusterFile, writeClusterFile, type ClusterState } from './state-file.js';

export { findPgInstall, type PgInstall } from './install.js';
export { readClusterFile, type ClusterState } from './state-file.js';

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Whether nothing listens on 127.0.0.1:port (we can bind it). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

export interface LocalNode {
  readonly name: string;
  readonly port: number;
  readonly dataDir: string;
}

export interface LocalCluster {
  /** The cluster's folder (cluster.json; the data too unless run as root). */
  readonly dir: string;
  /** Where the nodes' data directories and logs are. */
  readonly dataRoot: string;
  readonly citus: boolean;
  readonly coordinator: LocalNode;
  readonly workers: readonly LocalNode[];
  /** URL of a database on the coordinator (user postgres, trust auth on loopback). */
  url(database?: string): string;
  /** Stops every node and removes what startLocalCluster created (nothing else), without blocking the event loop. */
  stop(): Promise<void>;
  /** Stops one node (immediate shutdown, as a crash would), for fault tests. */
  stopNode(node: LocalNode): void;
  /** Starts a stopped node again. */
  startNode(node: LocalNode): void;
}

/** Ports for the nodes: `port`, `port`+1, ... each checked free; else distinct random free ports. */
async function nodePorts(names: readonly string[], port: number | undefined): Promise<number[]> {
  if (port === undefined) {
    const ports: number[] = [];
    while (ports.length < names.length) {
      const p = await freePort();
      if (!ports.includes(p)) ports.push(p);
    }
    return ports;
  }
  const ports = names.map((_, i) => port + i);
  for (const [i, p] of ports.entries()) {
    if (!(await portIsFree(p)))
      throw new ClusterError(
        `port ${p} on 127.0.0.1 is in use (the ${names[i]} would listen there): pick other ports with --port, or stop what listens on ${p}`,
        'cluster_port_in_use',
        { port: p },
      );
  }
  return ports;
}

/** Refuses a `dir` that exists and is not an empty folder: cluster up never mixes its files with others. */
export function assertUsableDir(dir: string): void {
  if (!existsSync(dir)) return;
  const entries = statSync(dir).isDirectory() ? readdirSync(dir) : undefined;
  if (entries !== undefined && entries.length === 0) return;
  const why =
    entries === undefined
      ? 'is not a folder'
      : `is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, and no ${CLUSTER_FILE} of a running cluster)`;
  throw new ClusterError(
    `${dir} ${why}: cluster up keeps its files in a folder of its own, which cluster down deletes. Pass --dir with a new or empty folder, e.g. --dir .citus-migrate/cluster`,
    'cluster_dir_not_empty',
    { path: dir },
  );
}

/** Makes `dir` and any missing parents; returns the folders it created, outermost first. */
export function makeDirs(dir: string): string[] {
  const first = mkdirSync(dir, { recursive: true });
  if (first === undefined) return [];
  const dirs = [first];
  for (const part of relative(first, dir).split(sep).filter(Boolean)) dirs.push(join(dirs.at(-1)!, part));
  return dirs;
}

/**
 * Starts a coordinator and `workers` workers (Citus when `citus`), registered with each other, in
 * `dir` (new or empty; default: a fresh temp folder), on `port` and the ports after it (default:
 * random free ports). As root the data goes to a folder of its own under the system temp dir:
 * initdb runs as postgres, which may not reach `dir` (a 0700 home or temp folder).
 */
/**
 * Starts a local cluster. `maxConnections` (default 200): a test run that creates a database per
 * test wants more, as each Citus database keeps connections open between its nodes.
 */
export async function startLocalCluster(opts: {
  citus: boolean;
  workers?: number;
  install?: PgInstall;
  dir?: string;
  port?: number;
  maxConnections?: number;
}): Promise<LocalCluster> {
  const install = opts.install ?? findPgInstall();
  if (!install) throw new Error('no PostgreSQL server binaries found (set PG_BIN, or install postgresql-15)');
  if (opts.citus && !install.hasCitus) throw new Error(`the citus extension is not installed in ${install.pkglibdir}`);
  const names = [
    'coordinator',
    ...Array.from({ length: opts.citus ? (opts.workers ?? 2) : 0 }, (_, i) => `worker${i + 1}`),
  ];
  const dir = opts.dir === undefined ? undefined : resolve(opts.dir);
  // Both checks before anything is created: a refusal leaves no trace.
  if (dir !== undefined) assertUsableDir(dir);
  const ports = await nodePorts(names, opts.port);
  const created = dir === undefined ? [mkdtempSync(join(tmpdir(), 'citus-migrate-'))] : makeDirs(dir);
  const clusterDir = dir ?? created[0]!;
  const dataRoot = isRoot() ? mkdtempSync(join(tmpdir(), DATA_ROOT_PREFIX)) : clusterDir;
  if (isRoot()) {
    created.push(dataRoot);
    const { uid, gid } = postgresIds();
    chmodSync(dataRoot, 0o755);
    chownSync(dataRoot, uid, gid);
  }
  const nodes: LocalNode[] = names.map((name, i) => ({ name, port: ports[i]!, dataDir: join(dataRoot, name) }));
  const state: ClusterState = {
    version: 1,
    citus: opts.citus,
    nodes,
    dataRoot,
    // cluster.json last: `down` removes it after everything else, so an interrupted down can rerun.
    created: {
      dirs: created,
      paths: [...nodes.flatMap((n) => [n.dataDir, logFile(dataRoot, n.name)]), join(clusterDir, CLUSTER_FILE)],
    },
  };
  // Written before any node exists, so that an interrupted `up` can still be taken down.
  writeClusterFile(clusterDir, state);
  const pgCtl = join(install.bin, 'pg_ctl');
  const start = (n: LocalNode): void =>
    runServerTool(pgCtl, ['-D', n.dataDir, '-l', logFile(dataRoot, n.name), '-w', '-t', '60', 'start']);
  const started: LocalNode[] = [];
  const stopAll = async (): Promise<void> => {
    await Promise.all(
      started.map((n) =>
        runServerToolAsync(pgCtl, ['-D', n.dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => {
          /* already stopped */
        }),
      ),
    );
    await removeCreated(clusterDir, state, process.cwd());
  };
  try {
    for (const node of nodes) {
      runServerTool(join(install.bin, 'initdb'), [
        '-D',
        node.dataDir,
        '-A',
        'trust',
        '-U',
        'postgres',
        '--no-sync',
        '-E',
        'UTF8',
        '--locale=C',
      ]);
      // PostgreSQL 15.19+ only lets listed libraries be logical decoding output plugins; Citus's
      // online operations (create_distributed_table_concurrently, splits) use its own, `citus`.
      const plugins = opts.citus && knowsSetting(install.bin, node.dataDir, 'output_plugin_libraries');
      appendFileSync(
        join(node.dataDir, 'postgresql.conf'),
        [
          // No Unix socket: clients use TCP on 127.0.0.1, and no socket file is left behind.
          '',
          `port = ${node.port}`,
          "listen_addresses = '127.0.0.1'",
          "unix_socket_directories = ''",
          'fsync = off',
          'synchronous_commit = off',
          'full_page_writes = off',
          `max_connections = ${opts.maxConnections ?? 200}`,
          // Logical decoding: Citus's shard moves need it, and a publication here can feed a subscription.
          'wal_level = logical',
          // Each Citus database runs a maintenance worker: leave room for a database per test.
          ...(opts.citus
            ? [
                "shared_preload_libraries = 'citus'",
                'citus.shard_replication_factor = 1',
                'max_worker_processes = 64',
                ...(plugins ? ["output_plugin_libraries = 'pgoutput, test_decoding, citus'"] : []),
              ]
            : []),
          '',
        ].join('\n'),
      );
      start(node);
      started.push(node);
    }
  } catch (e) {
    await stopAll();
    throw e;
  }
  const [coordinator, ...workers] = nodes as [LocalNode, ...LocalNode[]];
  return {
    dir: clusterDir,
    dataRoot,
    citus: opts.citus,
    coordinator,
    workers,
    url: (database = 'postgres') =>
      `postgresql://postgres@127.0.0.1:${coordinator.port}/${encodeURIComponent(database)}`,
    stop: stopAll,
    stopNode: (n) => runServerTool(pgCtl, ['-D', n.dataDir, '-m', 'immediate', '-w', 'stop']),
    startNode: start,
  };
}

/** Whether each node of the cluster in dir is running (pg_ctl status). */
export function localClusterStatus(dir: string, install = findPgInstall()): { node: LocalNode; running: boolean }[] {
  const c = readClusterFile(dir);
  if (!c || !install) return [];
  return c.nodes.map((node) => {
    try {
      runServerTool(join(install.bin, 'pg_ctl'), ['-D', node.dataDir, 'status']);
      return { node, running: true };
    } catch {
      return { node, running: false };
    }
  });
}

/**
 * Stops every node of the cluster in dir and removes what `up` created there, after checking
 * cluster.json lists nothing else. Returns the nodes stopped and the folders kept (not empty).
 */
export async function stopLocalCluster(
  dir: string,
  cwd: string,
  install = findPgInstall(),
): Promise<{ stopped: number; kept: string[] }> {
  const c = readClusterFile(dir);
  if (!c) return { stopped: 0, kept: [] };
  assertRemovable(dir, c, cwd);
  let stopped = 0;
  for (const n of c.nodes) {
    if (!existsSync(join(n.dataDir, 'postmaster.pid'))) continue;
    try {
      runServerTool(join(install?.bin ?? '', 'pg_ctl'), ['-D', n.dataDir, '-m', 'fast', '-w', 'stop']);
      stopped++;
    } catch {
      /* not running */
    }
  }
  return { stopped, kept: await removeCreated(dir, c, cwd) };
}

/** Whether this server knows a setting (postgres -C fails on an unknown one). */
function knowsSetting(bin: string, dataDir: string, name: string): boolean {
  try {
    runServerTool(join(bin, 'postgres'), ['-C', name, '-D', dataDir]);
    return true;
  } catch {
    return false;
  }
}
