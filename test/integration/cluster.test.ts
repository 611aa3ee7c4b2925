// startLocalCluster in a folder of the caller's, on chosen ports (plain PostgreSQL: no Citus
// needed): it refuses a taken port, and stop() removes only what it created.
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freePort, startLocalCluster } from '../../src/cluster/local.js';

/** A TCP server on 127.0.0.1:port (0: any), standing in for whatever holds a port. */
async function listenOn(port: number): Promise<Server> {
  const srv = createServer();
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', resolve);
  });
  return srv;
}

describe('startLocalCluster with a folder and a port', () => {
  it('runs on the port, and stop() leaves the files next to its folder', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'cm-cluster-'));
    writeFileSync(join(parent, 'citus-migrate.yaml'), 'version: 1\n');
    const port = await freePort();
    const cluster = await startLocalCluster({ citus: false, dir: join(parent, 'c'), port });
    try {
      expect(cluster.coordinator.port).toBe(port);
      expect(existsSync(join(parent, 'c', 'cluster.json'))).toBe(true);
      const client = new pg.Client({ connectionString: cluster.url() });
      await client.connect();
      const r = await client.query("SELECT current_setting('port') AS port").finally(() => client.end());
      expect(r.rows).toEqual([{ port: String(port) }]);
    } finally {
      await cluster.stop();
    }
    expect(readdirSync(parent)).toEqual(['citus-migrate.yaml']);
    expect(existsSync(cluster.dataRoot)).toBe(false);
  });

  // vitest runs the suite's global teardown (which stops the servers) on the event loop that is
  // also stopping the last test worker: a stop() that blocks for the half minute a Citus data
  // removal takes made that worker's stop time out ("Timeout terminating forks worker").
  it('stop() keeps the event loop running while it stops the servers and removes their data', async () => {
    const cluster = await startLocalCluster({ citus: false });
    let ticks = 0;
    const timer = setInterval(() => {
      ticks++;
    }, 1);
    try {
      await cluster.stop();
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
    expect(existsSync(cluster.dir)).toBe(false);
    expect(existsSync(cluster.dataRoot)).toBe(false);
  });

  it('names a port that is taken and creates nothing', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'cm-cluster-'));
    const srv = await listenOn(0);
    const port = (srv.address() as { port: number }).port;
    try {
      await expect(startLocalCluster({ citus: false, dir: join(parent, 'c'), port })).rejects.toThrow(
        `port ${port} on 127.0.0.1 is in use (the coordinator would listen there): pick other ports with --port, or stop what listens on ${port}`,
      );
    } finally {
      await new Promise((resolve) => srv.close(resolve));
    }
    expect(readdirSync(parent)).toEqual([]);
  });
});
