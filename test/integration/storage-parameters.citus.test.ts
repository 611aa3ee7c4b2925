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

  it("a distributed partitioned table's partitions take their own parameters on every shard: set, reset, and with a new partition", async () => {
    const db = await freshDatabase(citus!, 'storage_parts_citus');
    const manifest = (p2024: string, p2025: string, extra: string): string => `version: 1
tables:
  events:
    distributed_by: w
    shard_count: 4
    columns: { w: bigint, ts: date, note: text }
    partition_by: range (ts)
    partitions:
      events_2024: { from: 2024-01-01, to: 2025-01-01${p2024} }
      events_2025: { from: 2025-01-01, to: 2026-01-01${p2025} }${extra}
`;
    const first = projectDir(manifest(', storage_parameters: { fillfactor: 70 }', '', ''));
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: first })).code).toBe(0);
    const dir = projectDir(
      manifest(
        '',
        ', storage_parameters: { fillfactor: 60, toast.autovacuum_enabled: false }',
        '\n      events_2026: { from: 2026-01-01, to: 2027-01-01, storage_parameters: { autovacuum_enabled: false } }',
      ),
    );
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const shardOptions = `SELECT substring(c.relname from '^(events_[0-9]{4})_') AS part, count(*)::int AS shards,
        pg_catalog.array_to_string(c.reloptions, ',') AS options, pg_catalog.array_to_string(t.reloptions, ',') AS toast
      FROM pg_class c LEFT JOIN pg_class t ON t.oid = c.reltoastrelid
      WHERE c.relname ~ '^events_[0-9]{4}_[0-9]+$' GROUP BY 1, 3, 4 ORDER BY 1`;
    for (let n = 1; n < citus!.nodes.length; n++)
      expect(await sql(citus!, db.name, ['SET citus.override_table_visibility TO off', shardOptions], n)).toEqual([
        { part: 'events_2024', shards: 2, options: null, toast: null },
        { part: 'events_2025', shards: 2, options: 'fillfactor=60', toast: 'autovacuum_enabled=false' },
        { part: 'events_2026', shards: 2, options: 'autovacuum_enabled=false', toast: null },
      ]);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });
});
