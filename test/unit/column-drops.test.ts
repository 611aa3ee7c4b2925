// A column dropped with the indexes, keys and sql: file objects that use it (a revert of "add
// column + index"): they are dropped first. DROP COLUMN takes them with it, and their own DROP
// after it failed with 42704 every time.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterModel, SqlObject, Table } from '../../src/model/types.js';
import { diff } from '../../src/plan/diff/diff.js';
import { renderSql } from '../../src/plan/steps/step-spec.js';
import { loadParser } from '../../src/sql/pg-parse.js';

beforeAll(loadParser);

const col = (name: string, base = 'bigint') => ({ name, type: { base, sql: base, serial: false }, notNull: false });
const table = (more: Partial<Table>): Table => ({
  id: 'public.t',
  qname: { schema: 'public', name: 't' },
  columns: [col('id')],
  primaryKey: { columns: ['id'] },
  unique: [],
  indexes: [],
  foreignKeys: [],
  distribution: { kind: 'local' },
  ...more,
});
const model = (t: Table, objects: SqlObject[] = []): ClusterModel => ({
  schemas: ['public'],
  objects: Object.fromEntries(objects.map((o) => [o.id, o])),
  tables: { [t.id]: t },
  groups: {},
  sequences: {},
  routines: {},
});
const sqlIndex: SqlObject = {
  id: 'index public.t_code_lower',
  kind: 'index',
  name: 'public.t_code_lower',
  parent: 'relation public.t',
  create: ['CREATE INDEX t_code_lower ON public.t USING btree (lower(code))'],
  drop: ['DROP INDEX public.t_code_lower'],
  provides: ['index public.t_code_lower'],
  deps: ['relation public.t'],
};

describe('a dropped column goes after what uses it', () => {
  it('its index, unique constraint and sql: file index are dropped before it, on a table declared with columns and prune', () => {
    const actual = model(
      table({
        columns: [col('id'), col('email', 'text'), col('code', 'text')],
        unique: [{ name: 't_code_key', columns: ['code'] }],
        indexes: [{ name: 't_email', columns: ['email'], using: 'btree', unique: false }],
      }),
      [sqlIndex],
    );
    const r = diff(model(table({})), actual, { prune: true });
    expect(r.problems).toEqual([]);
    const sql = r.steps.flatMap((s) => renderSql(s));
    const at = (text: string) => sql.findIndex((x) => x.includes(text));
    for (const dependent of [
      'DROP CONSTRAINT t_code_key',
      'DROP INDEX public.t_email',
      'DROP INDEX public.t_code_lower',
    ])
      for (const column of ['DROP COLUMN email', 'DROP COLUMN code']) {
        expect(at(dependent), dependent).toBeGreaterThanOrEqual(0);
        expect(at(dependent), `${dependent} before ${column}`).toBeLessThan(at(column));
      }
  });
});
