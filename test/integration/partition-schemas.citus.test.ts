// Partitions kept in another schema than their table (a large public application keeps 400 of its
// 432 partitions apart): introspected with their schema (`archive.ev_2023` under `partitions:`),
// their own indexes and storage parameters too; a plan against the database they came from is
// empty; applied to an empty database they are created in their schema (on Citus with their shards
// there), proved by --prove, and the next plan is empty. Before, they were named as not managed.
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, plainServers, sql, type TestDb } from '../support/db.js';
import { adoptAndRebuild } from '../support/adopt-rebuild.js';
import type { ServerInfo } from '../support/servers.js';

const citus = citusServers();

async function roundTrip(info: ServerInfo, prefix: string, distribute: string): Promise<{ copy: TestDb }> {
  const original = await freshDatabase(info, `${prefix}_o`);
  for (const s of [
    'CREATE SCHEMA archive',
    'CREATE TABLE ev (w bigint, ts date NOT NULL, body text) PARTITION BY RANGE (ts)',
    "CREATE TABLE ev_2024 PARTITION OF ev FOR VALUES FROM ('2024-01-01') TO ('2025-01-01')",
    "CREATE TABLE archive.ev_2023 PARTITION OF ev FOR VALUES FROM ('2023-01-01') TO ('2024-01-01') WITH (fillfactor = 70)",
    ...(distribute ? [distribute] : []),
    'CREATE INDEX ev_2023_w ON archive.ev_2023 (w)',
  ])
    await original.query(s);
  const { copy, proved } = await adoptAndRebuild(info, original, `${prefix}_c`);
  expect(proved).toContain('create partition archive.ev_2023 of public.ev');
  return { copy };
}

describe('partitions in another schema than their table', () => {
  it('plain PostgreSQL: introspected, planned empty, built again the same', async () => {
    await roundTrip(plainServers(), 'part_schema', '');
  });

  it.skipIf(!citus)(
    'Citus: a distributed table whose partition is in another schema keeps its shards there',
    async () => {
      const { copy } = await roundTrip(
        citus!,
        'part_schema_citus',
        "SELECT create_distributed_table('ev', 'w', shard_count => 4)",
      );
      for (let n = 1; n < citus!.nodes.length; n++)
        expect(
          await sql(
            citus!,
            copy.name,
            [
              'SET citus.override_table_visibility TO off',
              "SELECT n.nspname AS schema, count(*)::int AS shards FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname ~ '^ev_202[34]_[0-9]+$' GROUP BY 1 ORDER BY 1",
            ],
            n,
          ),
        ).toEqual([
          { schema: 'archive', shards: 2 },
          { schema: 'public', shards: 2 },
        ]);
    },
  );
});
