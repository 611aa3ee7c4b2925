// Settings a database's owner may set for every session (ALTER DATABASE … SET, all user-settable)
// cannot make an apply lie on Citus: with DDL propagation and metadata sync turned off, and time
// zone, date style, access method and search_path set against the tool, the apply still reaches
// every worker and converges; and apply's verification reads the shards of every table it changed,
// so a worker that does not match is never "verified".
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql, type TestDb } from '../support/db.js';
import { hostileRole } from '../support/hostile.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const MANIFEST = (extra = ''): string => `version: 1
tables:
  orders:
    distributed_by: tenant
    shard_count: 4
    columns:
      tenant: { type: bigint, not_null: true }
      id: { type: bigint, not_null: true }
      placed: { type: timestamptz, not_null: true, default: "'2024-01-01 00:00'" }
${extra}    primary_key: [tenant, id]
    indexes:
      - { name: orders_placed, columns: [placed] }
`;

function project(manifest: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cm-settings-'));
  writeFileSync(join(dir, 'citus-migrate.yaml'), manifest);
  return dir;
}

/** The shards of public.orders on worker `node`, by name. */
async function shardsOn(db: TestDb, node: number): Promise<string[]> {
  const n = citus!.nodes[node]!;
  const rows = await db.query<{ shard: string }>(
    `SELECT pg_catalog.shard_name('public.orders'::pg_catalog.regclass, s.shardid, false) AS shard
       FROM pg_catalog.pg_dist_shard s JOIN pg_catalog.pg_dist_placement p USING (shardid)
       JOIN pg_catalog.pg_dist_node d USING (groupid)
      WHERE s.logicalrelid = 'public.orders'::pg_catalog.regclass AND d.nodeport = ${n.registerAs?.port ?? n.port}
      ORDER BY s.shardid`,
  );
  return rows.map((r) => r.shard);
}

describe.skipIf(!citus)("settings a database's owner sets do not make an apply lie (Citus)", () => {
  it('with DDL propagation and metadata sync off for the database, the apply still reaches every worker', async () => {
    const db = await freshDatabase(citus!, 'set');
    const h = await hostileRole(citus!, db, { owner: true });
    for (const s of [
      'citus.enable_ddl_propagation = off',
      'citus.enable_metadata_sync = off',
      'citus.use_citus_managed_tables = on',
      'citus.enable_schema_based_sharding = on',
      "TimeZone = 'Pacific/Chatham'",
      "DateStyle = 'SQL, DMY'",
      'search_path = public, pg_catalog',
    ])
      await h.run(`ALTER DATABASE ${db.name} SET ${s}`);
    const dir = project(MANIFEST());
    const env = { DATABASE_URL: db.url };
    const applied = await cli(['apply', '--auto-approve', '-f', dir], { env });
    expect(applied.code, applied.stderr).toBe(0);
    // Every shard has the index and the default, every worker the table's metadata.
    const shards = await cli(['plan', '--shards', '--detailed-exitcode', '-f', dir], { env });
    expect(shards.code, shards.stdout + shards.stderr).toBe(0);
    // The default is the time it says, read in UTC (not Chatham's 2023-12-31 10:15 UTC).
    const [row] = await sql<{ d: string }>(citus!, db.name, [
      "SET TimeZone = 'UTC'",
      "SET DateStyle = 'ISO, MDY'",
      `SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid) AS d FROM pg_catalog.pg_attrdef d
        JOIN pg_catalog.pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
        WHERE d.adrelid = 'public.orders'::pg_catalog.regclass AND a.attname = 'placed'`,
    ]);
    expect(row!.d).toContain('2024-01-01 00:00:00+00');
    expect(await h.breaches()).toEqual([]);
  });

  it("apply's verification reads the shards of the tables it changed: a worker that does not match is not verified", async () => {
    const db = await freshDatabase(citus!, 'ver');
    const env = { DATABASE_URL: db.url };
    const first = await cli(['apply', '--auto-approve', '-f', project(MANIFEST())], { env });
    expect(first.code, first.stderr).toBe(0);
    // One shard loses its index, straight on its worker (DDL with propagation off, a node that missed it).
    const [shard] = await shardsOn(db, 1);
    await sql(
      citus!,
      db.name,
      ['SET citus.enable_manual_changes_to_shards TO on', `DROP INDEX ${shard!.replace('orders_', 'orders_placed_')}`],
      1,
    );
    // The next apply changes the table (a new column): its verification finds the shard.
    const r = await cli(['apply', '--auto-approve', '-f', project(MANIFEST('      note: text\n'))], { env });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(/applied, but the cluster did not converge/);
    expect(r.stderr).toMatch(/repair shard .* index orders_placed is missing/);
  });
});
