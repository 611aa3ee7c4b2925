// Storage parameters on Citus: a distributed table's SET / RESET (its TOAST table's too) reach every
// shard on the workers, and the next plan is empty.
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

describe.skipIf(!citus)('storage parameters on Citus', () => {
  it("a distributed table's parameters are set on every shard, its TOAST table's too", async () => {
    const db = await freshDatabase(citus!, 'storage_citus');
    const dir = projectDir(`version: 1
tables:
  orders:
    distributed_by: w
    shard_count: 4
    columns: { w: bigint, id: bigint, note: text }
    primary_key: [w, id]
    storage_parameters: { fillfactor: 70, toast.autovacuum_enabled: false }
`);
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    for (let n = 1; n < citus!.nodes.length; n++)
      expect(
        await sql(
          citus!,
          db.name,
          [
            'SET citus.override_table_visibility TO off',
            `SELECT count(*)::int AS shards, count(*) FILTER (WHERE c.reloptions = '{fillfactor=70}' AND t.reloptions = '{autovacuum_enabled=false}')::int AS set
             FROM pg_class c JOIN pg_class t ON t.oid = c.reltoastrelid WHERE c.relname ~ '^orders_[0-9]+$'`,
          ],
          n,
        ),
      ).toEqual([{ shards: 2, set: 2 }]);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });
});
