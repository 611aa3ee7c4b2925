// Starts the servers integration tests use, once per run: a plain PostgreSQL always, and a Citus
// coordinator + 2 workers when Citus can be had: CITUS_MIGRATE_TEST_URL; else with
// CITUS_MIGRATE_TEST_ENGINE=docker containers of CITUS_MIGRATE_TEST_IMAGE (default: the image
// `cluster up` runs) on the engine DOCKER_HOST names, through the same code as `cluster up`;
// else local binaries with the citus extension. Otherwise Citus tests skip, and the reporter
// says why (or which path ran).
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { DEFAULT_IMAGE } from '../../src/cluster/engine.js';
import { findPgInstall, startLocalCluster, type LocalCluster } from '../../src/cluster/local.js';
import type { ServerInfo } from './servers.js';

/** Citus on containers, or why not: the reason when no engine answers or the cluster fails to start. */
async function onContainers(
  image: string,
): Promise<{ info: ServerInfo; path: string; stop: () => Promise<unknown> } | { reason: string }> {
  const { probeEngine, startDockerCluster } = await import('../../src/cluster/docker.js');
  const probe = await probeEngine(process.env);
  if (!probe.answered)
    return { reason: `CITUS_MIGRATE_TEST_ENGINE=docker, but no container engine answered (${probe.detail})` };
  try {
    const c = await startDockerCluster({ image, workers: 2, register: false });
    return {
      stop: c.remove,
      path: `containers of ${image} (${probe.detail})`,
      // Tests connect through the ports mapped on 127.0.0.1; Citus reaches the nodes by alias.
      info: {
        user: 'postgres',
        password: c.password,
        citus: true,
        nodes: c.nodes.map((n) => ({ host: '127.0.0.1', port: n.hostPort, registerAs: { host: n.name, port: 5432 } })),
      },
    };
  } catch (e) {
    return { reason: `CITUS_MIGRATE_TEST_ENGINE=docker: ${(e as Error).message}` };
  }
}

async function fromUrl(url: string): Promise<ServerInfo> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const nodes = await client.query<{ nodename: string; nodeport: number }>(
      "SELECT nodename, nodeport FROM pg_catalog.pg_dist_node WHERE noderole = 'primary' ORDER BY groupid",
    );
    const params = client as unknown as { host: string; port: number; user: string; password?: string };
    return {
      user: params.user,
      ...(params.password ? { password: params.password } : {}),
      citus: true,
      nodes: nodes.rows.map((r) => ({ host: r.nodename, port: r.nodeport })),
    };
  } finally {
    await client.end();
  }
}

const toInfo = (c: LocalCluster): ServerInfo => ({
  user: 'postgres',
  citus: c.citus,
  nodes: [c.coordinator, ...c.workers].map((n) => ({ host: '127.0.0.1', port: n.port })),
});

/** Why the container tests (cluster-docker.test.ts) cannot run here, or '' when an engine answers and has the image. */
async function containerSkipReason(image: string): Promise<string> {
  const { imagePresent, probeEngine } = await import('../../src/cluster/docker.js');
  const probe = await probeEngine(process.env);
  if (!probe.answered) return `no container engine answered (${probe.detail})`;
  if (!(await imagePresent(image)))
    return `the engine has no image ${image} (pull it, or set CITUS_MIGRATE_TEST_IMAGE to one it has)`;
  return '';
}

/**
 * Integration tests run the built CLI (dist/): one older than a source file would test code that is
 * not the repository's. Refused at once, saying what to run (npm test builds first).
 */
function refuseStaleDist(): void {
  const built = ['dist/cli.js', 'dist/chunks/cli-main.cjs', 'dist/index.js'].map((f) =>
    existsSync(f) ? statSync(f).mtimeMs : 0,
  );
  const oldest = Math.min(...built);
  const newer = readdirSync('src', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .filter((f) => statSync(join('src', f)).mtimeMs > oldest);
  if (oldest === 0 || newer.length > 0)
    throw new Error(
      oldest === 0
        ? 'dist/ is not built: run npm run build (npm test builds first)'
        : `dist/ is older than ${newer.length} source file(s) (src/${newer[0]}…): run npm run build (npm test builds first)`,
    );
}

/** One worker's servers: a plain PostgreSQL, and Citus or why not (and which Citus it is). */
async function startSet(
  install: NonNullable<ReturnType<typeof findPgInstall>>,
  started: { stop(): Promise<unknown> }[],
): Promise<{ plain: ServerInfo; citus: ServerInfo | null; reason: string; path: string }> {
  const plain = await startLocalCluster({ citus: false, install });
  started.push(plain);
  const url = process.env.CITUS_MIGRATE_TEST_URL;
  const engine = process.env.CITUS_MIGRATE_TEST_ENGINE;
  if (process.env.CITUS_MIGRATE_TEST_NO_CITUS)
    return { plain: toInfo(plain), citus: null, reason: 'CITUS_MIGRATE_TEST_NO_CITUS is set', path: '' };
  if (url)
    return {
      plain: toInfo(plain),
      citus: await fromUrl(url),
      reason: '',
      path: 'the cluster at CITUS_MIGRATE_TEST_URL',
    };
  if (engine !== undefined && engine !== 'docker' && engine !== 'local')
    throw new Error(`CITUS_MIGRATE_TEST_ENGINE must be docker or local (got ${JSON.stringify(engine)})`);
  if (engine === 'docker') {
    const r = await onContainers(process.env.CITUS_MIGRATE_TEST_IMAGE || DEFAULT_IMAGE);
    if ('reason' in r) return { plain: toInfo(plain), citus: null, reason: r.reason, path: '' };
    started.push(r);
    return { plain: toInfo(plain), citus: r.info, reason: '', path: r.path };
  }
  if (!install.hasCitus)
    return {
      plain: toInfo(plain),
      citus: null,
      reason: `no Citus: the citus extension is not installed in ${install.pkglibdir} and CITUS_MIGRATE_TEST_URL is not set`,
      path: '',
    };
  // Each Citus database keeps about two connections open on every worker (its maintenance
  // daemon's): ~100 test databases need more than the default 200.
  const c = await startLocalCluster({ citus: true, workers: 2, install, maxConnections: 500 });
  started.push(c);
  return { plain: toInfo(plain), citus: toInfo(c), reason: '', path: `local binaries in ${install.bin}` };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  refuseStaleDist();
  const started: { stop(): Promise<unknown> }[] = [];
  const install = findPgInstall();
  if (!install)
    throw new Error(
      'integration tests need PostgreSQL server binaries (initdb, pg_ctl): run .ci/run, or apt-get install postgresql-15, or set PG_BIN',
    );
  // A set of servers per worker (vitest.config.ts): a file claims one (server-claim.ts), so files
  // running at the same time never share a server, so what one does to roles, settings or locks is not in another's way. One cluster
  // named by CITUS_MIGRATE_TEST_URL is every worker's (the config runs one worker then).
  const workers = Math.max(1, project.config.maxWorkers ?? 1);
  let sets: Awaited<ReturnType<typeof startSet>>[];
  try {
    sets = await Promise.all(Array.from({ length: workers }, () => startSet(install, started)));
  } catch (e) {
    await Promise.all(started.map((c) => c.stop()));
    throw e;
  }
  const { reason } = sets[0]!;
  const path =
    sets.length > 1 && sets[0]!.path ? `${sets[0]!.path} (${sets.length} clusters, one per worker)` : sets[0]!.path;
  project.provide(
    'plainPg',
    sets.map((x) => x.plain),
  );
  project.provide(
    'citus',
    sets.map((x) => x.citus),
  );
  const claims = mkdtempSync(join(tmpdir(), 'cm-server-claims-'));
  project.provide('serverClaims', claims);
  project.provide('citusSkipReason', reason);
  project.provide('citusPath', path);
  const image = process.env.CITUS_MIGRATE_TEST_IMAGE || DEFAULT_IMAGE;
  const containerReason = await containerSkipReason(image);
  project.provide('containerImage', image);
  project.provide('containerSkipReason', containerReason);
  process.env.CITUS_MIGRATE_CONTAINER_SKIP_REASON = containerReason;
  process.env.CITUS_MIGRATE_CITUS_SKIP_REASON = reason;
  process.env.CITUS_MIGRATE_CITUS_PATH = path;
  // vitest runs this teardown while it is still stopping the last test file's worker, on the
  // same event loop: stopping the servers and removing their data (half a minute for a Citus
  // cluster with a database per test) must not block it, or that worker's stop times out.
  return async () => {
    rmSync(claims, { recursive: true, force: true });
    await Promise.all(started.map((c) => c.stop()));
  };
}
