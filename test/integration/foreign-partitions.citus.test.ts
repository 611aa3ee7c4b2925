// Foreign partitions (CREATE FOREIGN TABLE … PARTITION OF … SERVER) on Citus, and foreign tables
// that inherit (… INHERITS (t) SERVER), pinned: Citus
// distributes no table with one ("foreign tables cannot be distributed"; a reference table is
// never partitioned), and adds one to its
// metadata as a citus-local table. So a manifest that distributes such a table is an error, and
// a citus_local one is made, added, planned empty after and read back.
import { describe, expect, it } from 'vitest';
import { citusServers, firstError, freshDatabase } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const manifest = (layout: string): string => `version: 1
sql: [sql]
tables:
  app.m:
    ${layout}
    partition_by: range (at)
    partitions:
      m_2020: { from: 2020-01-01, to: 2021-01-01 }
      m_2019: { from: 2019-01-01, to: 2020-01-01, foreign: { server: files, options: { filename: /dev/null, format: csv } } }
    columns: { id: bigint, at: date }
`;
const SQL = 'CREATE EXTENSION file_fdw;\nCREATE SERVER files FOREIGN DATA WRAPPER file_fdw;\n';

describe.skipIf(!citus)('foreign partitions on Citus', () => {
  it('Citus distributes no table with one, and adds one to its metadata', async () => {
    const db = await freshDatabase(citus!, 'fpart_fact');
    await db.query(`${SQL}
      CREATE TABLE m (id bigint, at date) PARTITION BY RANGE (at);
      CREATE FOREIGN TABLE m_2019 PARTITION OF m FOR VALUES FROM ('2019-01-01') TO ('2020-01-01') SERVER files OPTIONS (filename '/dev/null')`);
    expect(await firstError(db.url, ["SELECT create_distributed_table('m', 'id')"])).toBe(
      'foreign tables cannot be distributed',
    );
    // (a reference table is never partitioned)
    expect(await firstError(db.url, ["SELECT create_reference_table('m')"])).toContain(
      'distributing partitioned tables in only supported for hash-distributed tables',
    );
    expect(await firstError(db.url, ["SELECT citus_add_local_table_to_metadata('m')"])).toBeUndefined();
  });

  it('a foreign table inherits a local table, never a distributed one, and makes its parent undistributable', async () => {
    const db = await freshDatabase(citus!, 'finh_fact');
    await db.query(`${SQL}
      CREATE TABLE dist (id bigint, v text); SELECT create_distributed_table('dist', 'id');
      CREATE TABLE loc (id bigint)`);
    expect(
      await firstError(db.url, [
        "CREATE FOREIGN TABLE fdist (src text) INHERITS (dist) SERVER files OPTIONS (filename '/dev/null')",
      ]),
    ).toBe('non-distributed tables cannot inherit distributed tables');
    expect(
      await firstError(db.url, [
        "CREATE FOREIGN TABLE floc (src text) INHERITS (loc) SERVER files OPTIONS (filename '/dev/null')",
      ]),
    ).toBeUndefined();
    expect(await firstError(db.url, ["SELECT create_distributed_table('loc', 'id')"])).toBe(
      'loc is not a regular, foreign or partitioned table',
    );
  });

  it('a distributed one is a manifest error; a citus_local one applies, plans empty and reads back', async () => {
    const db = await freshDatabase(citus!, 'fpart');
    const refused = await cli(['plan', '--database', db.url], {
      cwd: projectDir({ 'citus-migrate.yaml': manifest('distributed_by: id'), 'sql/s.sql': SQL }),
    });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('Citus distributes no table with a foreign partition');
    const dir = projectDir({ 'citus-migrate.yaml': manifest('citus_local: true'), 'sql/s.sql': SQL });
    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'creates_extension'], {
      cwd: dir,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('verified: planning again is empty');
    expect(
      await db.query<{ k: string; p: string }>(
        "SELECT c.relkind::text AS k, d.partmethod::text AS p FROM pg_class c LEFT JOIN pg_dist_partition d ON d.logicalrelid = c.oid WHERE c.oid = 'app.m_2019'::regclass",
      ),
    ).toEqual([{ k: 'f', p: 'n' }]);
    const out = projectDir({});
    expect((await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: out })).code).toBe(0);
    const again = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: out });
    expect(again.code, again.stdout).toBe(0);
  });
});
