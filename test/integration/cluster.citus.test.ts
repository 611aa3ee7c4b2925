// `citus-migrate cluster up|status|down` starts a real coordinator + 2 workers and removes it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { citusServers } from '../support/db.js';
import { cli } from '../support/run-cli.js';

describe.skipIf(!citusServers())('cluster command', () => {
  it('up prints a URL of a Citus coordinator with 2 synced workers; down removes it', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cm-cluster-'));
    const up = await cli(['cluster', 'up', '--dir', 'c'], { cwd });
    expect(up.code).toBe(0);
    const url = up.stdout.trim();
    expect(url).toMatch(/^postgresql:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    try {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const nodes = await client.query('SELECT groupid, hasmetadata, metadatasynced FROM pg_dist_node ORDER BY groupid').finally(() => client.end());
      expect(nodes.rows).toEqual([0, 1, 2].map((groupid) => ({ groupid, hasmetadata: true, metadatasynced: true })));
      expect((await cli(['cluster', 'up', '--dir', 'c'], { cwd })).stdout.trim()).toBe(url);
      const status = await cli(['cluster', 'status', '--dir', 'c'], { cwd });
      expect(status.code).toBe(0);
      expect(status.stdout.match(/running/g)).toHaveLength(3);
    } finally {
      expect((await cli(['cluster', 'down', '--dir', 'c'], { cwd })).code).toBe(0);
    }
    expect((await cli(['cluster', 'status', '--dir', 'c'], { cwd })).code).toBe(1);
  });
});
