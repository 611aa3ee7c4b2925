// Creates a fresh database on a cluster: on every node, with the citus extension and the workers
// registered when the cluster runs Citus (Citus does not propagate CREATE DATABASE).
import pg from 'pg';
import { connectSession } from '../db/session.js';
import { quoteIdent, quoteLiteral } from '../sql/quote.js';
import type { LocalCluster, LocalNode } from './local.js';

async function exec(port: number, database: string, statements: readonly string[]): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database });
  await connectSession(client);
  try {
    for (const s of statements) await client.query(s);
  } finally {
    await client.end();
  }
}

/** Creates `name` on every node of the cluster and returns its coordinator URL. */
export async function createClusterDatabase(cluster: LocalCluster, name: string): Promise<string> {
  const nodes = [cluster.coordinator, ...cluster.workers];
  for (const n of nodes) await exec(n.port, 'postgres', [`CREATE DATABASE ${quoteIdent(name)}`]);
  return initClusterDatabase(cluster, name);
}

/**
 * Creates the citus extension on every node in `name` and registers the workers (Citus only),
 * at `workerPort(w)` when given: a port that forwards to the worker, such as a delay proxy.
 */
export async function initClusterDatabase(
  cluster: LocalCluster,
  name: string,
  opts: { workerPort?: (w: LocalNode) => number } = {},
): Promise<string> {
  if (cluster.citus) {
    for (const w of cluster.workers) await exec(w.port, name, ['CREATE EXTENSION citus']);
    await exec(cluster.coordinator.port, name, [
      'CREATE EXTENSION citus',
      `SELECT citus_set_coordinator_host('127.0.0.1', ${cluster.coordinator.port})`,
      ...cluster.workers.map(
        (w) => `SELECT citus_add_node(${quoteLiteral('127.0.0.1')}, ${opts.workerPort?.(w) ?? w.port})`,
      ),
    ]);
  }
  return cluster.url(name);
}
