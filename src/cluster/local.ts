// Throwaway PostgreSQL / Citus clusters on 127.0.0.1 from local server binaries: a coordinator
// and N workers in a temp dir. initdb and pg_ctl refuse root, so as root they run as `postgres`.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PgInstall {
  readonly bin: string;
  readonly pkglibdir: string;
  readonly sharedir: string;
  readonly hasCitus: boolean;
}

/** Finds PostgreSQL server binaries: $PG_BIN, else pg_config, else /usr/lib/postgresql/<newest>/bin. */
export function findPgInstall(env: Readonly<Record<string, string | undefined>> = process.env): PgInstall | undefined {
  const candidates: string[] = [];
  if (env.PG_BIN) candidates.push(env.PG_BIN);
  if (existsSync('/usr/lib/postgresql')) {
    for (const v of readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))) candidates.push(`/usr/lib/postgresql/${v}/bin`);
  }
  for (const bin of candidates) {
    if (!existsSync(join(bin, 'initdb')) || !existsSync(join(bin, 'pg_ctl'))) continue;
    const pgConfig = existsSync(join(bin, 'pg_config')) ? join(bin, 'pg_config') : 'pg_config';
    let pkglibdir = join(bin, '..', 'lib');
    let sharedir = '';
    try {
      pkglibdir = execFileSync(pgConfig, ['--pkglibdir'], { encoding: 'utf8' }).trim();
      sharedir = execFileSync(pgConfig, ['--sharedir'], { encoding: 'utf8' }).trim();
    } catch { /* no pg_config: fall back to the Debian layout */ }
    if (!sharedir) sharedir = join('/usr/share/postgresql', bin.split('/').at(-2) ?? '');
    const hasCitus = existsSync(join(pkglibdir, 'citus.so')) && existsSync(join(sharedir, 'extension', 'citus.control'));
    return { bin, pkglibdir, sharedir, hasCitus };
  }
  return undefined;
}

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

const isRoot = (): boolean => process.getuid?.() === 0;

function run(cmd: string, args: readonly string[]): void {
  const full = isRoot() ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] as const : [cmd, args] as const;
  const r = spawnSync(full[0], [...full[1]], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${(r.stderr || r.stdout || String(r.error)).trim()}`);
}

export interface LocalNode {
  readonly name: string;
  readonly port: number;
  readonly dataDir: string;
}

export interface LocalCluster {
  readonly dir: string;
  readonly citus: boolean;
  readonly coordinator: LocalNode;
  readonly workers: readonly LocalNode[];
  /** URL of a database on the coordinator (user postgres, trust auth on loopback). */
  url(database?: string): string;
  stop(): void;
  /** Stops one node (immediate shutdown, as a crash would), for fault tests. */
  stopNode(node: LocalNode): void;
  /** Starts a stopped node again. */
  startNode(node: LocalNode): void;
}

/** Starts a coordinator and `workers` workers (Citus when `citus`), registered with each other. */
export async function startLocalCluster(opts: { citus: boolean; workers?: number; install?: PgInstall; dir?: string }): Promise<LocalCluster> {
  const install = opts.install ?? findPgInstall();
  if (!install) throw new Error('no PostgreSQL server binaries found (set PG_BIN, or install postgresql-15)');
  if (opts.citus && !install.hasCitus) throw new Error(`the citus extension is not installed in ${install.pkglibdir}`);
  // The state file lives in `dir`; the data too, unless we are root: then initdb runs as
  // postgres, which may not be able to reach `dir` (a 0700 home or temp folder), so the data
  // goes to a fresh folder of its own under the system temp dir.
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'citus-migrate-'));
  mkdirSync(dir, { recursive: true });
  const dataRoot = isRoot() ? mkdtempSync(join(tmpdir(), 'citus-migrate-data-')) : dir;
  if (isRoot()) {
    chmodSync(dataRoot, 0o755);
    chownSync(dataRoot, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })));
  }
  const names = ['coordinator', ...Array.from({ length: opts.citus ? opts.workers ?? 2 : 0 }, (_, i) => `worker${i + 1}`)];
  const nodes: LocalNode[] = [];
  const started: LocalNode[] = [];
  const stopAll = (): void => {
    for (const n of started) {
      try { run(join(install.bin, 'pg_ctl'), ['-D', n.dataDir, '-m', 'immediate', '-w', 'stop']); } catch { /* already stopped */ }
    }
    rmSync(dir, { recursive: true, force: true });
    rmSync(dataRoot, { recursive: true, force: true });
  };
  try {
    for (const name of names) {
      const node = { name, port: await freePort(), dataDir: join(dataRoot, name) };
      nodes.push(node);
      run(join(install.bin, 'initdb'), ['-D', node.dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
      appendFileSync(join(node.dataDir, 'postgresql.conf'), [
        '', `port = ${node.port}`, "listen_addresses = '127.0.0.1'", `unix_socket_directories = '${dataRoot}'`,
        'fsync = off', 'synchronous_commit = off', 'full_page_writes = off', 'max_connections = 200',
        // Each Citus database runs a maintenance worker: leave room for a database per test.
        ...(opts.citus ? ["shared_preload_libraries = 'citus'", 'wal_level = logical', 'citus.shard_replication_factor = 1', 'max_worker_processes = 64'] : []),
        '',
      ].join('\n'));
      run(join(install.bin, 'pg_ctl'), ['-D', node.dataDir, '-l', join(dataRoot, `${name}.log`), '-w', '-t', '60', 'start']);
      started.push(node);
    }
  } catch (e) {
    stopAll();
    throw e;
  }
  writeFileSync(join(dir, 'cluster.json'), JSON.stringify({ citus: opts.citus, nodes, dataRoot }, null, 2));
  const [coordinator, ...workers] = nodes as [LocalNode, ...LocalNode[]];
  return {
    dir, citus: opts.citus, coordinator, workers,
    url: (database = 'postgres') => `postgresql://postgres@127.0.0.1:${coordinator.port}/${encodeURIComponent(database)}`,
    stop: stopAll,
    stopNode: (n) => run(join(install.bin, 'pg_ctl'), ['-D', n.dataDir, '-m', 'immediate', '-w', 'stop']),
    startNode: (n) => run(join(install.bin, 'pg_ctl'), ['-D', n.dataDir, '-l', join(dataRoot, `${n.name}.log`), '-w', '-t', '60', 'start']),
  };
}

interface ClusterFile { readonly citus: boolean; readonly nodes: readonly LocalNode[]; readonly dataRoot?: string }

/** Reads the cluster a previous `startLocalCluster` left in dir, or undefined. */
export function readClusterFile(dir: string): ClusterFile | undefined {
  const file = join(dir, 'cluster.json');
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as ClusterFile;
}

/** Whether each node of the cluster in dir is running (pg_ctl status). */
export function localClusterStatus(dir: string, install = findPgInstall()): { node: LocalNode; running: boolean }[] {
  const c = readClusterFile(dir);
  if (!c || !install) return [];
  return c.nodes.map((node) => {
    try { run(join(install.bin, 'pg_ctl'), ['-D', node.dataDir, 'status']); return { node, running: true }; } catch { return { node, running: false }; }
  });
}

/** Stops every node of the cluster in dir and removes the dir. */
export function stopLocalCluster(dir: string, install = findPgInstall()): number {
  const c = readClusterFile(dir);
  if (!c) return 0;
  let stopped = 0;
  for (const n of c.nodes) {
    try { run(join(install?.bin ?? '', 'pg_ctl'), ['-D', n.dataDir, '-m', 'fast', '-w', 'stop']); stopped++; } catch { /* not running */ }
  }
  if (c.dataRoot) rmSync(c.dataRoot, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
  return stopped;
}
