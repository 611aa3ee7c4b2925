// A column's SET STATISTICS, SET STORAGE and SET (…) on Citus (Citus 13.2.2): refused on a
// distributed table's column and on its partition's own ("alter table command is currently
// unsupported"; pinned here): a partition's own declared in a sql: file, or a storage change of a
// distributed table's column, is a plan problem, nothing runs; on a local partitioned table the
// partition's own apply and the next plan is empty.
import { describe, expect, it } from 'vitest';
import { citusServers, firstError, freshDatabase } from '../support/db.js';
import { schemaDump } from '../support/dump.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const manifest = (distributed: boolean, storage = ''): string => `version: 1
sql: [own.sql]
tables:
  app.p:
    ${distributed ? 'distributed_by: id' : 'local: true'}
    partition_by: RANGE (k)
    partitions: { p1: { from: "0", to: "10" } }
    columns: { id: { type: integer, not_null: true }, k: { type: integer, not_null: true }, c: { type: text${storage} } }
`;

describe.skipIf(!citus)('column settings on Citus', () => {
  it('Citus refuses them on a distributed table and its partitions (pinned); declared, they are plan problems; on a local table they apply', async () => {
    const db = await freshDatabase(citus!, 'ccolset');
    for (const alter of ['SET STATISTICS 50', 'SET STORAGE MAIN', 'SET (n_distinct = 3)'])
      expect(
        await firstError(db.url, [
          'CREATE TABLE IF NOT EXISTS public.dp (id int, k int, c text) PARTITION BY RANGE (k)',
          'CREATE TABLE IF NOT EXISTS public.dp1 PARTITION OF public.dp FOR VALUES FROM (0) TO (10)',
          "SELECT create_distributed_table('public.dp', 'id') WHERE NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'public.dp'::regclass)",
          `ALTER TABLE ONLY public.dp1 ALTER COLUMN ${alter.includes('STATISTICS') || alter.includes('n_distinct') ? 'id' : 'c'} ${alter}`,
        ]),
        alter,
      ).toContain('alter table command is currently unsupported');
    expect(await firstError(db.url, ['ALTER TABLE public.dp ALTER COLUMN c SET STORAGE MAIN'])).toContain(
      'alter table command is currently unsupported',
    );
    await db.query('DROP TABLE public.dp');

    const own =
      'ALTER TABLE ONLY app.p1 ALTER COLUMN id SET STATISTICS 50;\nALTER TABLE ONLY app.p1 ALTER COLUMN c SET STORAGE MAIN;\n';
    const before = schemaDump(db);
    const refused = await cli(['apply', '--database', db.url, '--auto-approve'], {
      cwd: projectDir({ 'citus-migrate.yaml': manifest(true), 'own.sql': own }),
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'column setting app.p1.id statistics: Citus refuses ALTER COLUMN … SET STATISTICS, SET STORAGE and SET (…) on a partition',
    );
    expect(refused.stderr).toContain('column setting app.p1.c storage: Citus refuses');
    expect(schemaDump(db)).toBe(before);

    // Distributed without them, then a storage change of the column: refused at plan time too.
    const bare = { 'citus-migrate.yaml': manifest(true), 'own.sql': '' };
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: projectDir(bare) })).code).toBe(0);
    const storage = await cli(['plan', '--database', db.url], {
      cwd: projectDir({ ...bare, 'citus-migrate.yaml': manifest(true, ', storage: main') }),
    });
    expect(storage.code).toBe(1);
    expect(storage.stderr + storage.stdout).toContain('Citus refuses ALTER COLUMN … SET STORAGE on a distributed');

    // A local partitioned table on the same cluster: its partition's own settings apply.
    const local = await freshDatabase(citus!, 'ccolset');
    const dir = projectDir({ 'citus-migrate.yaml': manifest(false), 'own.sql': own });
    const apply = await cli(['apply', '--database', local.url, '--auto-approve'], { cwd: dir });
    expect(apply.code, apply.stderr).toBe(0);
    expect((await cli(['plan', '--database', local.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });
});
