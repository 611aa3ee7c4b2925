// A partition's own column COMPRESSION and a materialized view's, in sql: files: accepted on a
// partition or materialized view the manifest declares, refused on a table (its compression is the
// manifest's) and where it is what the partition has from its table; dropped back to what the
// table will have (partition-column-drops.ts), not what it had.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../src/manifest/load.js';
import { ManifestError } from '../../src/errors.js';
import { partitionColumnDrop } from '../../src/plan/diff/partition-column-drops.js';
import type { SqlObject } from '../../src/model/types.js';
import { projectDir } from '../support/project.js';

const TABLE = `tables:
  app.t:
    partition_by: range (id)
    partitions: { t1: { from: "0", to: "10" }, t2: { from: "10", to: "20" } }
    columns: { id: integer, b: { type: text, compression: lz4 } }
`;
const load = (sql: string) => {
  const dir = projectDir({ 'citus-migrate.yaml': `version: 1\nsql: [own.sql]\n${TABLE}`, 'own.sql': sql });
  return loadManifest(join(dir, 'citus-migrate.yaml'));
};
const problems = async (sql: string) =>
  load(sql).then(
    () => [],
    (e: unknown) => (e as ManifestError).problems.map((p) => `${p.code}: ${p.message}`),
  );

describe('a column COMPRESSION in a sql: file', () => {
  it("is a partition's own, or a materialized view's", async () => {
    const m = await load(`ALTER TABLE ONLY app.t2 ALTER COLUMN b SET COMPRESSION pglz;
CREATE MATERIALIZED VIEW app.mv AS SELECT id, b FROM app.t;
ALTER MATERIALIZED VIEW app.mv ALTER COLUMN b SET COMPRESSION pglz;
`);
    expect(
      Object.keys(m.desired.objects)
        .filter((k) => k.startsWith('column compression'))
        .sort(),
    ).toEqual(['column compression app.mv.b', 'column compression app.t2.b']);
  });

  it('is refused on a table, and where the partition has it from its table', async () => {
    expect(await problems('ALTER TABLE ONLY app.t ALTER COLUMN b SET COMPRESSION pglz;\n')).toEqual([
      expect.stringContaining('unsupported_statement: own.sql:1:1: column compression app.t.b: in an SQL file only'),
    ]);
    expect(await problems('ALTER TABLE ONLY app.t1 ALTER COLUMN b SET COMPRESSION lz4;\n')).toEqual([
      expect.stringContaining('redundant_statement: own.sql:1:1: column compression app.t1.b: it is the COMPRESSION'),
    ]);
  });

  it('is dropped back to the compression the table will have', async () => {
    const m = await load('');
    const own: SqlObject = {
      id: 'column compression app.t2.b',
      kind: 'column compression',
      name: 'app.t2.b',
      parent: 'relation app.t2',
      create: ['ALTER TABLE app.t2 ALTER COLUMN b SET COMPRESSION pglz'],
      drop: ['ALTER TABLE app.t2 ALTER COLUMN b SET COMPRESSION default'],
      provides: [],
      deps: [],
    };
    expect(partitionColumnDrop(own, m.desired)).toEqual(['ALTER TABLE app.t2 ALTER COLUMN b SET COMPRESSION lz4']);
    const dflt: SqlObject = {
      ...own,
      id: 'column default app.t2.b',
      kind: 'column default',
      drop: ["ALTER TABLE app.t2 ALTER COLUMN b SET DEFAULT 'old'::text"],
    };
    expect(partitionColumnDrop(dflt, m.desired)).toEqual(['ALTER TABLE app.t2 ALTER COLUMN b DROP DEFAULT']);
  });
});
