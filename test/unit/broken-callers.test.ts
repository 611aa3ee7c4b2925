// Dependents that break: routine bodies (declared, and the cluster's own the manifest leaves
// alone) and views of sql: files that name a table or column the plan drops or renames are plan
// problems with the file and line of the statement; a body that names a variable of that name,
// another table's column of that name, or nothing that goes is not.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterModel, Routine, SqlObject, Table } from '../../src/model/types.js';
import { brokenCallers } from '../../src/plan/checks/broken-callers.js';
import { loadParser } from '../../src/sql/pg-parse.js';
import { loadPlpgsqlParser } from '../../src/sql/plpgsql-check.js';
import type { Step } from '../../src/plan/steps/steps.js';

beforeAll(async () => {
  await loadParser();
  await loadPlpgsqlParser();
});

const col = (name: string) => ({ name, type: { base: 'text', sql: 'text', serial: false }, notNull: false });
const table = (name: string, columns: string[]): Table => ({
  id: `public.${name}`,
  qname: { schema: 'public', name },
  columns: columns.map(col),
  unique: [],
  indexes: [],
  foreignKeys: [],
  distribution: { kind: 'local' },
});
const routine = (name: string, definition: string): Routine => ({
  id: `public.${name}(bigint)`,
  qname: { schema: 'public', name },
  kind: 'procedure',
  argTypes: ['bigint'],
  definition,
});
const model = (tables: Table[], routines: Routine[] = [], objects: SqlObject[] = []): ClusterModel => ({
  schemas: ['public'],
  objects: Object.fromEntries(objects.map((o) => [o.id, o])),
  tables: Object.fromEntries(tables.map((t) => [t.id, t])),
  groups: {},
  sequences: {},
  routines: Object.fromEntries(routines.map((r) => [r.id, r])),
});

const PLACE = `CREATE PROCEDURE place(p_id bigint)
LANGUAGE plpgsql AS $$
DECLARE note text := 'a variable, not the column';
BEGIN
  INSERT INTO t (id, note) VALUES (p_id, note);
  UPDATE u SET note = 'u has one too' WHERE id = p_id;
  PERFORM 1 FROM t JOIN u USING (id) WHERE u.note IS NULL;
END $$`;
const READS = `CREATE FUNCTION reads(p bigint) RETURNS text LANGUAGE sql AS $$
  SELECT x.note FROM t x WHERE x.id = p
$$`;

describe('routines and views that name what the plan drops or renames', () => {
  const actual = model(
    [table('t', ['id', 'note']), table('u', ['id', 'note']), table('old', ['id'])],
    [routine('reads', READS)],
  );
  const drop: Step[] = [{ kind: 'drop_column', table: { schema: 'public', name: 't' }, column: 'note' }];

  it("names the statement's file and line: a declared routine's INSERT column, the cluster's routine's qualified read", () => {
    const desired = model([table('t', ['id']), table('u', ['id', 'note'])], [routine('place', PLACE)]);
    const out = brokenCallers(drop, desired, actual, {
      defaultSchema: 'public',
      sources: new Map([['public.place(bigint)', { file: 'routines/place.sql', text: PLACE }]]),
    });
    expect(out.map((p) => `${p.where}: ${p.object}: ${p.message.split(':')[0]}`)).toEqual([
      'routines/place.sql:5: routine public.place(bigint): names column public.t.note, which this plan drops',
      "line 2 of the cluster's definition: routine public.reads(bigint): names column public.t.note, which this plan drops",
    ]);
  });

  it('a renamed table or column named by its former name; a view of a sql: file', () => {
    const view: SqlObject = {
      id: 'view public.v',
      kind: 'view',
      name: 'public.v',
      create: ['CREATE VIEW v AS SELECT id FROM old'],
      provides: [],
      deps: [],
      source: 'views.sql:3:1',
      searchPath: 'public',
    };
    const steps: Step[] = [
      { kind: 'rename_table', table: { schema: 'public', name: 'old' }, to: 'new' },
      { kind: 'rename_column', table: { schema: 'public', name: 't' }, column: 'note', to: 'remark' },
    ];
    const out = brokenCallers(steps, model([], [], [view]), actual, { defaultSchema: 'public' });
    expect(out.map((p) => `${p.where}: ${p.object}: ${p.message.split(':')[0]}`)).toEqual([
      "line 2 of the cluster's definition: routine public.reads(bigint): names column public.t.note, which this plan renames to remark",
      'views.sql:3:1: view public.v: names table public.old, which this plan renames to new',
    ]);
  });

  it('nothing when no statement names what goes', () => {
    const desired = model(
      [table('t', ['id', 'note'])],
      [routine('place', PLACE.replace('INSERT INTO t (id, note)', 'INSERT INTO t (id)').replace(', note);', ');'))],
    );
    const steps: Step[] = [{ kind: 'drop_column', table: { schema: 'public', name: 'u' }, column: 'other' }];
    expect(brokenCallers(steps, desired, actual, { defaultSchema: 'public' })).toEqual([]);
  });
});
