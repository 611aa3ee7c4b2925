// Starts the servers integration tests use, once per run: a plain PostgreSQL always, and a Citus
// coordinator + 2 workers when Citus can be had (CITUS_MIGRATE_TEST_URL, else local binaries
// with the citus extension). Otherwise Citus tests skip, and the reporter says why.
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { findPgInstall, startLocalCluster, type LocalCluster } from '../../src/cluster/local.js';
import type { ServerInfo } from './servers.js';

async function fromUrl(url: string): Promise<ServerInfo> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const nodes = await client.query<{ nodename: string; nodeport: number }>(
      "SELECT nodename, nodeport FROM pg_catalog.pg_dist_node WHERE noderole = 'primary' ORDER BY groupid");
    const params = client as unknown as { host: string; port: number; user: string; password?: string };
    return {
      user: params.user, ...(params.password ? { password: params.password } : {}), citus: true,
      nodes: nodes.rows.map((r) => ({ host: r.nodename, port: r.nodeport })),
    };
  } finally {
    await client.end();
  }
}

const toInfo = (c: LocalCluster): ServerInfo => ({
  user: 'postgres', citus: c.citus,
  nodes: [c.coordinator, ...c.workers].map((n) => ({ host: '127.0.0.1', port: n.port })),
});

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started: LocalCluster[] = [];
  const install = findPgInstall();
  if (!install) throw new Error('integration tests need PostgreSQL server binaries (initdb, pg_ctl): run .ci/run, or apt-get install postgresql-15, or set PG_BIN');
  const plain = await startLocalCluster({ citus: false, install });
  started.push(plain);
  project.provide('plainPg', toInfo(plain));

  let citus: ServerInfo | null = null;
  let reason = '';
  const url = process.env.CITUS_MIGRATE_TEST_URL;
  if (process.env.CITUS_MIGRATE_TEST_NO_CITUS) {
    reason = 'CITUS_MIGRATE_TEST_NO_CITUS is set';
  } else if (url) {
    citus = await fromUrl(url);
  } else if (install.hasCitus) {
    const c = await startLocalCluster({ citus: true, workers: 2, install });
    started.push(c);
    citus = toInfo(c);
  } else {
    reason = `no Citus: the citus extension is not installed in ${install.pkglibdir} and CITUS_MIGRATE_TEST_URL is not set`;
  }
  project.provide('citus', citus);
  project.provide('citusSkipReason', reason);
  process.env.CITUS_MIGRATE_CITUS_SKIP_REASON = reason;
  // vitest runs this teardown while it is still stopping the last test file's worker, on the
  // same event loop: stopping the servers and removing their data (half a minute for a Citus
  // cluster with a database per test) must not block it, or that worker's stop times out.
  return async () => { await Promise.all(started.map((c) => c.stop())); };
}
