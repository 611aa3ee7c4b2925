// Table settings (issue #23), without a database: what REPLICA IDENTITY, CLUSTER ON and ALTER
// INDEX … SET STATISTICS declare in an SQL file, the SQL of a column's SET STATISTICS, an
// extension declared older than installed, and the changes Citus refuses on its tables.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterModel, SqlObject, Table } from '../../src/model/types.js';
import { objectsFromSql } from '../../src/objects/from-sql.js';
import { citusAlterRefusals } from '../../src/plan/checks/citus-alter-refusals.js';
import { compareVersions, extensionChange } from '../../src/plan/diff/extension.js';
import { indexStatisticsChange } from '../../src/plan/diff/index-statistics.js';
import { renderSql, summarize } from '../../src/plan/steps/step-spec.js';
import type { Step } from '../../src/plan/steps/steps.js';
import { loadParser } from '../../src/sql/pg-parse.js';

beforeAll(async () => {
  await loadParser();
});

const read = (text: string) => objectsFromSql([{ file: 'x.sql', text }], 'public', () => '');

describe('table settings in SQL files', () => {
  it('REPLICA IDENTITY and CLUSTER ON are objects of their table that need the index they name', () => {
    const { objects, problems } = read(`CREATE UNIQUE INDEX t_a ON app.t (a);
ALTER TABLE app.t REPLICA IDENTITY USING INDEX t_a;
ALTER TABLE app.t CLUSTER ON t_a;
ALTER TABLE app.u REPLICA IDENTITY FULL;`);
    expect(problems).toEqual([]);
    const pick = (o: SqlObject | undefined) => o && { parent: o.parent, deps: o.deps, create: o.create };
    expect(pick(objects['replica identity app.t'])).toEqual({
      parent: 'relation app.t',
      deps: ['relation app.t', 'index app.t_a'],
      create: ['ALTER TABLE app.t REPLICA IDENTITY USING INDEX t_a'],
    });
    expect(pick(objects['cluster on app.t'])).toEqual({
      parent: 'relation app.t',
      deps: ['relation app.t', 'index app.t_a'],
      create: ['ALTER TABLE app.t CLUSTER ON t_a'],
    });
    expect(pick(objects['replica identity app.u'])).toEqual({
      parent: 'relation app.u',
      deps: ['relation app.u'],
      create: ['ALTER TABLE app.u REPLICA IDENTITY FULL'],
    });
  });

  it('ALTER INDEX … SET STATISTICS completes the index declared before it; anything else of ALTER INDEX, or REPLICA IDENTITY DEFAULT, is refused', () => {
    const { objects, problems } = read(`CREATE INDEX t_lower ON app.t (lower(a));
ALTER INDEX app.t_lower ALTER COLUMN 1 SET STATISTICS 500;
ALTER INDEX app.t_lower SET (fillfactor = 50);
ALTER INDEX app.nope ALTER COLUMN 1 SET STATISTICS 5;
ALTER TABLE app.t REPLICA IDENTITY DEFAULT;`);
    expect(objects['index app.t_lower']!.create).toEqual([
      'CREATE INDEX t_lower ON app.t (lower(a))',
      'ALTER INDEX app.t_lower ALTER COLUMN 1 SET STATISTICS 500',
    ]);
    expect(problems.map((p) => `${p.where} ${p.code}: ${p.message}`)).toEqual([
      'x.sql:3:1 unsupported_statement: of ALTER INDEX, only ALTER COLUMN … SET STATISTICS is managed here',
      'x.sql:4:1 amends_undeclared: index app.nope is not declared before this statement',
      'x.sql:5:1 unsupported_statement: REPLICA IDENTITY DEFAULT is what a table has without this statement: leave the statement out',
    ]);
  });
});

describe('column statistics', () => {
  it('renders SET STATISTICS, and -1 as the default', () => {
    const set: Step = {
      kind: 'alter_column_statistics',
      table: { schema: 'app', name: 't' },
      column: 'A b',
      statistics: 800,
    };
    expect(renderSql(set)).toEqual(['ALTER TABLE app.t ALTER COLUMN "A b" SET STATISTICS 800']);
    expect(summarize(set)).toBe('set statistics target of app.t."A b" to 800');
    expect(summarize({ ...set, statistics: -1 })).toBe('set statistics target of app.t."A b" to the default');
  });
});

describe('extension versions', () => {
  it('compares numeric versions part by part', () => {
    expect(compareVersions('1.5', '1.6')).toBe(-1);
    expect(compareVersions('1.10', '1.9')).toBe(1);
    expect(compareVersions('1.6', '1.6.0')).toBe(0);
    expect(compareVersions('11.0-2', '11.0-10')).toBe(-1);
    expect(compareVersions('1.0beta', '1.0')).toBeUndefined();
  });

  it('an update to an older version is a problem; to a newer one, ALTER EXTENSION … UPDATE TO', () => {
    const ext = (version: string): SqlObject => ({
      id: 'extension citext',
      kind: 'extension',
      name: 'citext',
      create: [],
      provides: [],
      deps: [],
      extension: { schema: 'app', version },
    });
    expect(extensionChange(ext('1.5'), ext('1.6'))).toEqual({
      code: 'extension_no_update_path',
      object: 'extension citext',
      message:
        'is at version 1.6: PostgreSQL has no update path back to 1.5 (ALTER EXTENSION … UPDATE only goes forward); declare 1.6 or a later version, or drop and create it by hand',
    });
    expect(extensionChange(ext('1.6'), ext('1.5'))).toMatchObject({
      kind: 'alter_object',
      statements: ["ALTER EXTENSION citext UPDATE TO '1.6'"],
    });
  });

  it("with the server's update paths: a version without one is a problem naming those it has; one with a path is planned, even to a lower number", () => {
    const ext = (version: string, updates?: string[]): SqlObject => ({
      id: 'extension hstore',
      kind: 'extension',
      name: 'hstore',
      create: [],
      provides: [],
      deps: [],
      extension: { schema: 'public', version, ...(updates ? { updates } : {}) },
    });
    // A version the server does not have: by number it is newer, but no script reaches it.
    expect(extensionChange(ext('1.9'), ext('1.6', ['1.8', '1.7', '1.10']))).toEqual({
      code: 'extension_no_update_path',
      object: 'extension hstore',
      message:
        'is at version 1.6: PostgreSQL has no update path from it to 1.9 (pg_extension_update_paths); it can be updated to 1.7, 1.8, 1.10: declare 1.6 or one of those, or drop and create it by hand',
    });
    expect(extensionChange(ext('1.5'), ext('1.8', []))).toEqual({
      code: 'extension_no_update_path',
      object: 'extension hstore',
      message:
        'is at version 1.8: PostgreSQL has no update path from it to 1.5 (pg_extension_update_paths); it cannot be updated to any other version: declare 1.8, or drop and create it by hand',
    });
    // Citus ships scripts that go back (9.5-3--9.5-2): a path is a path.
    expect(extensionChange(ext('9.5-2'), ext('9.5-3', ['9.5-2', '9.5-1']))).toMatchObject({
      kind: 'alter_object',
      statements: ["ALTER EXTENSION hstore UPDATE TO '9.5-2'"],
    });
    expect(extensionChange(ext('1.8'), ext('1.6', ['1.7', '1.8']))).toMatchObject({
      statements: ["ALTER EXTENSION hstore UPDATE TO '1.8'"],
    });
  });
});

describe('changes Citus refuses on its tables', () => {
  const table = (kind: 'local' | 'reference'): Table => ({
    id: 'app.t',
    qname: { schema: 'app', name: 't' },
    unique: [],
    indexes: [],
    foreignKeys: [],
    distribution: { kind },
  });
  const model = (kind: 'local' | 'reference' | 'none'): ClusterModel => ({
    schemas: ['app'],
    objects: {},
    tables: kind === 'none' ? {} : { 'app.t': table(kind) },
    groups: {},
    sequences: {},
    routines: {},
  });
  const stats: Step = {
    kind: 'alter_column_statistics',
    table: { schema: 'app', name: 't' },
    column: 'a',
    statistics: 5,
  };
  const cluster: Step = {
    kind: 'create_object',
    object: 'cluster on app.t',
    objectKind: 'cluster on',
    statements: ['ALTER TABLE app.t CLUSTER ON i'],
    recreate: false,
  };
  const codes = (steps: Step[], d: ClusterModel, a: ClusterModel): string[] =>
    citusAlterRefusals(steps, d, a).map((p) => p.object);

  it('column statistics: refused on a table Citus already holds, not on a new or local one', () => {
    expect(codes([stats], model('reference'), model('reference'))).toEqual(['column app.t.a']);
    expect(codes([stats], model('reference'), model('none'))).toEqual([]);
    expect(codes([stats], model('reference'), model('local'))).toEqual([]);
  });

  it('CLUSTER ON: refused whenever the table is a Citus table before or after the plan', () => {
    expect(codes([cluster], model('reference'), model('none'))).toEqual(['cluster on app.t']);
    expect(codes([cluster], model('local'), model('reference'))).toEqual(['cluster on app.t']);
    expect(codes([cluster], model('local'), model('local'))).toEqual([]);
  });
});

describe('index statistics', () => {
  it('a change of statistics targets alone is made in place, not by building the index again', () => {
    const index = (...stats: string[]): SqlObject => ({
      id: 'index app.i',
      kind: 'index',
      name: 'app.i',
      create: ['CREATE INDEX i ON app.t USING btree (lower(a), upper(b))', ...stats],
      provides: ['index app.i'],
      deps: [],
    });
    expect(
      indexStatisticsChange(
        index('ALTER INDEX app.i ALTER COLUMN 2 SET STATISTICS 100'),
        index('ALTER INDEX app.i ALTER COLUMN 1 SET STATISTICS 500'),
      ),
    ).toMatchObject({
      kind: 'alter_object',
      statements: [
        'ALTER INDEX app.i ALTER COLUMN 1 SET STATISTICS -1',
        'ALTER INDEX app.i ALTER COLUMN 2 SET STATISTICS 100',
      ],
    });
    const other = { ...index(), create: ['CREATE INDEX i ON app.t USING btree (lower(b))'] };
    expect(indexStatisticsChange(other, index('ALTER INDEX app.i ALTER COLUMN 1 SET STATISTICS 500'))).toBeUndefined();
  });
});
