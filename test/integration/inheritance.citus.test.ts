// Table inheritance (INHERITS), as LedgerSMB uses it (notes and translations inherited by a table
// per kind of record; a child's own default on an inherited column): introspected as `inherits:`
// and `inherited_columns:`, a plan against the database it came from is empty, applied to an empty
// database it builds the same (pg_dump equal), a parent's new column reaches its children, and the
// next plan is empty. On Citus the tables stay local beside distributed ones, and what Citus refuses
// for a table in an inheritance tree is pinned here (docs/citus-facts.md).
import { describe, expect, it } from 'vitest';
import { citusServers, firstError, freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { schemaDump } from '../support/dump.js';
import { cli } from '../support/run-cli.js';
import type { ServerInfo } from '../support/servers.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const citus = citusServers();

const TREE = [
  'CREATE TABLE note (id serial PRIMARY KEY, note_class int NOT NULL, note text, ref_key int NOT NULL, CHECK (note_class > 0))',
  'CREATE TABLE entity_note (entity_id int, PRIMARY KEY (id)) INHERITS (note)',
  'ALTER TABLE entity_note ADD CHECK (note_class = 1)',
  'CREATE INDEX entity_note_id_idx ON entity_note (id)',
  'CREATE TABLE asset_note () INHERITS (note)',
  'ALTER TABLE asset_note ALTER COLUMN note_class SET DEFAULT 4',
  'CREATE TABLE translation (trans_id int, language_code varchar(6), description text, PRIMARY KEY (trans_id, language_code))',
  'CREATE TABLE parts_translation (PRIMARY KEY (trans_id, language_code)) INHERITS (translation)',
];

async function roundTrip(
  info: ServerInfo,
  prefix: string,
  extra: readonly string[],
): Promise<{ copy: TestDb; dir: string }> {
  const original = await freshDatabase(info, `${prefix}_o`);
  for (const s of [...TREE, ...extra]) await original.query(s);
  const dir = projectDir({});
  const intro = await cli(['introspect', '--database', original.url, '-o', 'citus-migrate.yaml'], { cwd: dir });
  expect(intro.code, intro.stderr).toBe(0);
  expect(intro.stderr).not.toContain('left out');
  const manifest = readFileSync(join(dir, 'citus-migrate.yaml'), 'utf8');
  expect(manifest).toContain('  entity_note:\n    local: true\n    inherits:\n      - note\n');
  expect(manifest).toContain(
    '  asset_note:\n    local: true\n    inherits:\n      - note\n    inherited_columns:\n      note_class:\n        default: "4"\n',
  );
  const self = await cli(['plan', '--database', original.url, '--detailed-exitcode', '--include-unmanaged'], {
    cwd: dir,
  });
  expect(self.code, self.stdout + self.stderr).toBe(0);
  const copy = await freshDatabase(info, `${prefix}_c`);
  const proved = await cli(['plan', '--database', copy.url, '--prove'], { cwd: dir });
  expect(proved.stdout).toContain('create table public.entity_note (1 column, and those of public.note)');
  expect(proved.stdout).toContain('applied, and planning again was empty; the copy planned the same');
  const r = await cli(['apply', '--database', copy.url, '--auto-approve'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(schemaDump(copy)).toEqual(schemaDump(original));
  expect((await cli(['plan', '--database', copy.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  return { copy, dir };
}

/** A column added to the parent reaches every child; a child's own default stays its own. */
async function parentGrows(copy: TestDb, dir: string): Promise<void> {
  const file = join(dir, 'citus-migrate.yaml');
  const m = readFileSync(file, 'utf8').replace(
    '\n  note:\n    local: true\n    columns:\n',
    '\n  note:\n    local: true\n    columns:\n      created: { type: timestamptz, default: now() }\n',
  );
  expect(m).toContain('created: { type: timestamptz');
  writeFileSync(file, m);
  const plan = await cli(['plan', '--database', copy.url, '--format', 'json'], { cwd: dir });
  const steps = (JSON.parse(plan.stdout) as { transaction: { steps: { sql: string[] }[] } }).transaction.steps;
  expect(steps.flatMap((s) => s.sql)).toEqual([
    'ALTER TABLE public.note ADD COLUMN created timestamp with time zone DEFAULT now()',
  ]);
  const r = await cli(['apply', '--database', copy.url, '--auto-approve'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(
    await copy.query(
      "SELECT c.relname, pg_get_expr(d.adbin, d.adrelid) AS d FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum WHERE a.attname IN ('created', 'note_class') AND c.relname IN ('asset_note', 'entity_note') ORDER BY 1, a.attname",
    ),
  ).toEqual([
    { relname: 'asset_note', d: 'now()' },
    { relname: 'asset_note', d: '4' },
    { relname: 'entity_note', d: 'now()' },
    { relname: 'entity_note', d: null },
  ]);
  expect((await cli(['plan', '--database', copy.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
}

describe('table inheritance', () => {
  it('plain PostgreSQL: introspected, planned empty, built again the same; a parent column reaches its children', async () => {
    const { copy, dir } = await roundTrip(plainServers(), 'inherit', []);
    await parentGrows(copy, dir);
  });

  it.skipIf(!citus)('Citus: the tree stays local beside a distributed table, built again the same', async () => {
    const { copy, dir } = await roundTrip(citus!, 'inherit_citus', [
      'CREATE TABLE orders (w bigint, id bigint)',
      "SELECT create_distributed_table('orders', 'w', shard_count => 4)",
    ]);
    expect(
      await copy.query("SELECT count(*)::int AS n FROM pg_dist_partition WHERE logicalrelid::text LIKE '%note'"),
    ).toEqual([{ n: 0 }]);
    await parentGrows(copy, dir);
  });

  it.skipIf(!citus)(
    'Citus refuses a Citus table in an inheritance tree, and a foreign key from one to a reference table',
    async () => {
      const db = await freshDatabase(citus!, 'inherit_facts');
      for (const s of [
        'CREATE TABLE ref (id int PRIMARY KEY)',
        "SELECT create_reference_table('ref')",
        'CREATE TABLE p (id int, ref_key int)',
        'CREATE TABLE c (x int) INHERITS (p)',
        'CREATE TABLE d (id int)',
        "SELECT create_distributed_table('d', 'id', shard_count => 2)",
      ])
        await db.query(s);
      for (const [t, call] of [
        ['p', "create_distributed_table('p', 'id')"],
        ['c', "create_distributed_table('c', 'id')"],
        ['p', "create_reference_table('p')"],
      ])
        expect(await firstError(db.url, [`SELECT ${call}`])).toBe(
          `${t} is not a regular, foreign or partitioned table`,
        );
      expect(await firstError(db.url, ["SELECT citus_add_local_table_to_metadata('c')"])).toMatch(
        /local tables added to metadata cannot be involved in inheritance relationships/,
      );
      expect(await firstError(db.url, ['ALTER TABLE c ADD FOREIGN KEY (ref_key) REFERENCES ref (id)'])).toMatch(
        /cannot add local table "c" to metadata, local tables added to metadata cannot be involved in inheritance relationships/,
      );
      expect(await firstError(db.url, ['CREATE TABLE dc () INHERITS (d)'])).toBe(
        'non-distributed tables cannot inherit distributed tables',
      );
    },
  );
});
