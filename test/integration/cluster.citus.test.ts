// `citus-migrate cluster up|status|down` starts a real coordinator + 2 workers and removes it,
// and only what it created.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freePort, portIsFree } from '../../src/cluster/local.js';
import { citusServers } from '../support/db.js';
import { cli } from '../support/run-cli.js';

/** A port with the two after it free too: a coordinator and 2 workers. */
async function freeRun(): Promise<number> {
  for (;;) {
    const p = await freePort();
    if (p + 2 <= 65535 && (await portIsFree(p + 1)) && (await portIsFree(p + 2))) return p;
  }
}

describe.skipIf(!citusServers())('cluster command', () => {
  it('up --port prints a URL of a Citus coordinator with 2 synced workers; down removes only what up created', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cm-cluster-'));
    writeFileSync(join(cwd, 'citus-migrate.yaml'), 'version: 1\n');
    const port = await freeRun();
    const up = await cli(['cluster', 'up', '--engine', 'local', '--dir', 'c', '--port', String(port)], { cwd });
    expect(up.code).toBe(0);
    const url = up.stdout.trim();
    expect(url).toBe(`postgresql://postgres@127.0.0.1:${port}/postgres`);
    try {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const nodes = await client
        .query('SELECT groupid, nodeport, hasmetadata, metadatasynced FROM pg_dist_node ORDER BY groupid')
        .finally(() => client.end());
      expect(nodes.rows).toEqual(
        [0, 1, 2].map((groupid) => ({ groupid, nodeport: port + groupid, hasmetadata: true, metadatasynced: true })),
      );
      expect((await cli(['cluster', 'up', '--engine', 'local', '--dir', 'c'], { cwd })).stdout.trim()).toBe(url);
      const same = await cli(['cluster', 'up', '--dir', 'c', '--port', String(port), '--workers', '2'], { cwd });
      expect(same).toMatchObject({ code: 0, stdout: `${url}\n` });
      const other = await cli(['cluster', 'up', '--dir', 'c', '--port', String(port + 10), '--workers', '3'], { cwd });
      expect(other).toMatchObject({ code: 1, stdout: '' });
      expect(other.stderr).toBe(
        `error: a cluster is already running in c, and not the one asked for: --port ${port + 10}, but its coordinator listens on ${port}; --workers 3, but it has 2. Run citus-migrate cluster down --dir c first, or pass another --dir\n`,
      );
      const status = await cli(['cluster', 'status', '--dir', 'c'], { cwd });
      expect(status.code).toBe(0);
      expect(status.stdout.match(/running/g)).toHaveLength(3);
      expect(status.stdout).toMatch(/^data {9}\/.+$/m);
    } finally {
      expect((await cli(['cluster', 'down', '--dir', 'c'], { cwd })).code).toBe(0);
    }
    expect((await cli(['cluster', 'status', '--dir', 'c'], { cwd })).code).toBe(1);
    expect(readdirSync(cwd)).toEqual(['citus-migrate.yaml']);
  });

  it('down keeps a file put into its folder after up, and the folder', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cm-cluster-'));
    expect((await cli(['cluster', 'up', '--engine', 'local', '--dir', 'c', '--workers', '0'], { cwd })).code).toBe(0);
    writeFileSync(join(cwd, 'c', 'notes.txt'), 'mine\n');
    const down = await cli(['cluster', 'down', '--dir', 'c'], { cwd });
    expect(down).toEqual({
      code: 0,
      stdout: '',
      stderr: `stopped 1 node and removed the files cluster up created in c\nkept ${join(cwd, 'c')}: it holds files cluster up did not create\n`,
    });
    expect(readdirSync(join(cwd, 'c'))).toEqual(['notes.txt']);
  });
});
