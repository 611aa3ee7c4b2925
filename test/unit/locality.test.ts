// Locality of the statements inside a delegated routine, on parse trees: each class and its edge
// cases (variables copied from the argument, loops, arrays, joins between colocated tables,
// correlated and uncorrelated subqueries, INSERT … VALUES / SELECT, RETURN QUERY, dynamic SQL).
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeRoutine } from '../../src/locality/analyze.js';
import { classifyStatement, type RoutineScope, type TableFacts } from '../../src/locality/classify.js';
import type { ClusterModel, Table } from '../../src/model/types.js';
import { loadParser, parseStatements, parseTypeText } from '../../src/sql/pg-parse.js';
import { loadPlpgsqlParser } from '../../src/sql/plpgsql-check.js';

const dist = (name: string, column: string, columns: string[], group = 'g'): TableFacts => ({
  id: `public.${name}`,
  kind: 'distributed',
  column,
  group,
  columns,
});
const TABLES: Record<string, TableFacts> = {
  warehouse: dist('warehouse', 'w_id', ['w_id', 'w_tax']),
  stock: dist('stock', 's_w_id', ['s_w_id', 's_i_id', 's_quantity']),
  order_line: dist('order_line', 'ol_w_id', ['ol_w_id', 'ol_i_id', 'ol_supply_w_id', 'ol_amount']),
  new_order: dist('new_order', 'no_w_id', ['no_w_id', 'no_o_id']),
  other: dist('other', 'o_id', ['o_id'], 'h'),
  item: { id: 'public.item', kind: 'reference', columns: ['i_id', 'i_price'] },
  audit: { id: 'public.audit', kind: 'local', columns: ['a'] },
};

const scope: RoutineScope = {
  routineName: 'fn',
  variables: new Set(['p_w_id', 'v_w', 'v_other', 'arr', 'no_w_id']),
  keyVars: new Set(['p_w_id', 'v_w', 'no_w_id']),
  keyParam: 1,
  keyName: 'p_w_id',
  group: 'g',
  table: (schema, name) => (schema === undefined || schema === 'public' ? TABLES[name] : undefined),
};

const classify = (sql: string) => classifyStatement(parseStatements(sql)[0].stmt, scope);

beforeAll(async () => {
  await loadParser();
  await loadPlpgsqlParser();
});

describe('one statement', () => {
  it.each([
    ['filtered by the argument', 'SELECT w_tax FROM warehouse WHERE w_id = p_w_id', 'shard'],
    ['by a variable only assigned from it', 'SELECT w_tax FROM warehouse WHERE w_id = v_w', 'shard'],
    ['by $1', 'SELECT w_tax FROM warehouse WHERE w_id = $1', 'shard'],
    ['by the argument with a cast', 'SELECT w_tax FROM warehouse WHERE w_id = p_w_id::integer', 'shard'],
    ['by the argument qualified with the routine name', 'SELECT w_tax FROM warehouse WHERE w_id = fn.p_w_id', 'shard'],
    ['by an alias', 'SELECT s.s_quantity FROM stock s WHERE s.s_w_id = p_w_id AND s.s_i_id = 3', 'shard'],
    [
      'a join of colocated tables on their distribution columns',
      'SELECT count(*) FROM order_line JOIN stock ON s_w_id = ol_w_id AND s_i_id = ol_i_id WHERE ol_w_id = p_w_id',
      'shard',
    ],
    ['joined in WHERE', 'SELECT count(*) FROM order_line, stock WHERE s_w_id = ol_w_id AND ol_w_id = p_w_id', 'shard'],
    [
      'a correlated subquery on the same key',
      'DELETE FROM new_order WHERE no_w_id = p_w_id AND no_o_id = (SELECT min(n2.no_o_id) FROM new_order n2 WHERE n2.no_w_id = new_order.no_w_id)',
      'shard',
    ],
    ['a CTE filtered by the key', 'WITH x AS (SELECT * FROM stock WHERE s_w_id = p_w_id) SELECT * FROM x', 'shard'],
    [
      'a shard joined with a reference table',
      'SELECT sum(i_price) FROM order_line JOIN item ON i_id = ol_i_id WHERE ol_w_id = p_w_id',
      'shard',
    ],
    ['INSERT … VALUES with the argument', 'INSERT INTO new_order (no_o_id, no_w_id) VALUES (1, p_w_id)', 'shard'],
    ['INSERT … VALUES in column order', 'INSERT INTO new_order VALUES (p_w_id, 1)', 'shard'],
    [
      'INSERT … VALUES of a variable named like the target column',
      'INSERT INTO new_order (no_o_id, no_w_id) VALUES (1, no_w_id)',
      'shard',
    ],
    ['INSERT … SELECT of the argument', 'INSERT INTO stock (s_w_id, s_i_id) SELECT p_w_id, i_id FROM item', 'shard'],
    [
      'an UPDATE … RETURNING',
      'UPDATE stock SET s_quantity = s_quantity - 1 WHERE s_w_id = p_w_id AND s_i_id = 2 RETURNING s_quantity',
      'shard',
    ],
    ['reference tables only', 'SELECT i_price FROM item WHERE i_id = 5', 'reference'],
    ['another variable', 'SELECT w_tax FROM warehouse WHERE w_id = v_other', 'cross_shard'],
    ['an array', 'SELECT w_tax FROM warehouse WHERE w_id = ANY(arr)', 'cross_shard'],
    ['an IN list', 'SELECT w_tax FROM warehouse WHERE w_id IN (1, 2)', 'cross_shard'],
    ['no filter', 'SELECT count(*) FROM warehouse', 'cross_shard'],
    ['the key only under OR', 'SELECT w_tax FROM warehouse WHERE w_id = p_w_id OR w_id = 2', 'cross_shard'],
    [
      'a join to another warehouse (the supply warehouse)',
      'SELECT count(*) FROM order_line JOIN stock ON s_w_id = ol_supply_w_id AND s_i_id = ol_i_id WHERE ol_w_id = p_w_id',
      'cross_shard',
    ],
    [
      'an uncorrelated subquery on all shards',
      'UPDATE stock SET s_quantity = 0 WHERE s_w_id = p_w_id AND s_i_id IN (SELECT ol_i_id FROM order_line)',
      'cross_shard',
    ],
    [
      'a UNION with an unfiltered branch',
      'SELECT w_id FROM warehouse WHERE w_id = p_w_id UNION SELECT s_w_id FROM stock',
      'cross_shard',
    ],
    ['a table of another colocation group', 'SELECT * FROM other WHERE o_id = p_w_id', 'cross_shard'],
    [
      'INSERT … VALUES with another value',
      'INSERT INTO new_order (no_w_id, no_o_id) VALUES (v_other, 1)',
      'cross_shard',
    ],
    [
      'INSERT of several rows, one of another warehouse',
      'INSERT INTO new_order (no_w_id, no_o_id) VALUES (p_w_id, 1), (v_other, 2)',
      'cross_shard',
    ],
    ['a constant key', 'SELECT w_tax FROM warehouse WHERE w_id = 7', 'cross_shard'],
    ['a local table', 'INSERT INTO audit VALUES (1)', 'coordinator'],
    [
      'a local table joined with a shard',
      'SELECT * FROM warehouse JOIN audit ON a = w_id WHERE w_id = p_w_id',
      'coordinator',
    ],
    ['a table nobody knows', 'SELECT * FROM nowhere', 'unknown'],
  ])('%s', (_name, sql, locality) => {
    expect(classify(sql).locality).toBe(locality);
  });

  it('says why, with the names the statement uses', () => {
    expect(
      classify(
        'SELECT count(*) FROM order_line JOIN stock ON s_w_id = ol_supply_w_id AND s_i_id = ol_i_id WHERE ol_w_id = p_w_id',
      ).why,
    ).toBe('public.stock by stock.s_w_id = order_line.ol_supply_w_id, not p_w_id');
    expect(classify('SELECT w_tax FROM warehouse WHERE w_id = v_other').why).toBe(
      'public.warehouse by warehouse.w_id = v_other, not p_w_id',
    );
    expect(classify('SELECT w_tax FROM warehouse WHERE w_id = ANY(arr)').why).toBe(
      'public.warehouse warehouse.w_id is compared with an array (= ANY)',
    );
    expect(classify('SELECT count(*) FROM warehouse').why).toBe('public.warehouse not filtered by w_id = p_w_id');
    expect(classify('SELECT * FROM other WHERE o_id = p_w_id').why).toBe(
      'public.other is in colocation group h, the routine with g',
    );
    expect(classify('INSERT INTO audit VALUES (1)').why).toBe(
      'public.audit is a local table: it lives on the coordinator only',
    );
    expect(
      classify('SELECT count(*) FROM order_line JOIN stock ON s_w_id = ol_w_id WHERE ol_w_id = p_w_id').tables,
    ).toEqual(['public.order_line', 'public.stock']);
  });
});

// A small model: two colocated tables, a reference table; a routine delegated by its first argument.
function model(): ClusterModel {
  const table = (name: string, distribution: Table['distribution'], columns: string[]): Table => ({
    id: `public.${name}`,
    qname: { schema: 'public', name },
    columns: columns.map((c) => ({ name: c, type: parseTypeText('integer'), notNull: false })),
    unique: [],
    indexes: [],
    foreignKeys: [],
    distribution,
  });
  return {
    schemas: ['public'],
    objects: {},
    sequences: {},
    routines: {},
    groups: {
      g: { name: 'g', shardCount: 4, anchor: 'public.warehouse', members: ['public.warehouse', 'public.stock'] },
    },
    tables: {
      'public.warehouse': table('warehouse', { kind: 'hash', column: 'w_id', group: 'g' }, ['w_id', 'w_tax']),
      'public.stock': table('stock', { kind: 'hash', column: 's_w_id', group: 'g' }, [
        's_w_id',
        's_i_id',
        's_quantity',
      ]),
      'public.item': table('item', { kind: 'reference' }, ['i_id', 'i_price']),
    },
  };
}

const routine = (definition: string, file?: string, fileText?: string) =>
  analyzeRoutine(
    {
      routine: {
        id: 'public.f(integer, integer[])',
        qname: { schema: 'public', name: 'f' },
        argTypes: ['integer', 'integer[]'],
        distribution: { argIndex: 0, colocateWith: 'public.warehouse' },
      },
      definition,
      ...(file ? { file, fileText } : {}),
    },
    model(),
    'public',
  );

describe('a routine body', () => {
  const BODY = `CREATE FUNCTION f(p_w integer, p_items integer[]) RETURNS SETOF integer LANGUAGE plpgsql AS $$
DECLARE
  w integer := p_w;
  x integer;
  r record;
BEGIN
  x := (SELECT count(*) FROM stock WHERE s_w_id = w);
  IF EXISTS (SELECT 1 FROM item WHERE i_id = x) THEN
    PERFORM 1 FROM warehouse WHERE w_id = $1;
  END IF;
  SELECT w_tax INTO x FROM warehouse WHERE w_id = p_w;
  FOR r IN SELECT s_i_id FROM stock WHERE s_w_id = p_w LOOP
    UPDATE stock SET s_quantity = 0 WHERE s_w_id = x;
  END LOOP;
  FOREACH x IN ARRAY p_items LOOP
    UPDATE stock SET s_quantity = 1 WHERE s_w_id = p_w AND s_i_id = x;
  END LOOP;
  RETURN QUERY SELECT s_i_id FROM stock WHERE s_w_id = ANY(p_items);
  EXECUTE format('DELETE FROM %I', 'stock');
  EXECUTE 'SELECT count(*) FROM warehouse';
END $$`;

  it('classifies every statement that touches a table, at its line', () => {
    const a = routine(BODY);
    expect(a.distributedBy).toBe('p_w');
    expect(a.colocation).toBe('g');
    expect(a.statements.map((s) => [s.line, s.locality])).toEqual([
      [7, 'shard'], // w is only ever assigned p_w
      [8, 'reference'],
      [9, 'shard'], // $1
      [11, 'shard'],
      [12, 'shard'],
      [13, 'cross_shard'], // x is assigned by queries and loops
      [16, 'shard'],
      [18, 'cross_shard'], // RETURN QUERY over an array of warehouses
      [19, 'unknown'], // EXECUTE of a string built at run time
      [20, 'cross_shard'], // EXECUTE of a constant string is read
    ]);
    expect(a.statements[8]!.why).toBe('EXECUTE of a string built at run time');
  });

  it('counts lines in the routine file when it has one', () => {
    const text = `-- two lines of comment\n-- before the statement\n${BODY};\n`;
    expect(routine(BODY, 'routines/f.sql', text).statements[0]!.line).toBe(9);
  });

  it('does not take a reassigned distribution argument as the key', () => {
    const a = routine(`CREATE FUNCTION f(p_w integer, p_items integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  p_w := p_w + 1;
  UPDATE warehouse SET w_tax = 0 WHERE w_id = p_w;
END $$`);
    expect(a.statements.map((s) => s.locality)).toEqual(['cross_shard']);
  });

  it('reads SQL functions statement by statement', () => {
    const a = routine(`CREATE FUNCTION f(p_w integer, p_items integer[]) RETURNS integer LANGUAGE sql AS $$
UPDATE warehouse SET w_tax = 0 WHERE w_id = p_w;
SELECT count(*)::integer FROM stock WHERE s_w_id = $1 AND s_i_id = ANY(p_items);
$$`);
    expect(a.statements.map((s) => [s.line, s.locality])).toEqual([
      [2, 'shard'],
      [3, 'shard'],
    ]);
  });

  it('says why a body is not read', () => {
    expect(
      routine(`CREATE FUNCTION f(p_w integer, p_items integer[]) RETURNS integer LANGUAGE c AS 'lib', 'f'`).skipped,
    ).toBe('LANGUAGE c is not read');
  });
});

describe('validate and plan warnings', () => {
  it('name each statement of a delegated routine that leaves the shard, at its file:line', async () => {
    const { loadManifestText } = await import('../../src/manifest/load.js');
    const files: Record<string, string> = {
      '/p/routines/pay.sql': `-- pays
CREATE PROCEDURE pay(p_w integer, p_c_w integer) LANGUAGE plpgsql AS $$
BEGIN
  UPDATE warehouse SET w_tax = 0 WHERE w_id = p_w;
  UPDATE warehouse SET w_tax = 1 WHERE w_id = p_c_w;
  INSERT INTO audit VALUES (p_w);
END $$;
`,
    };
    const fs = {
      readFile: (p: string) => {
        if (!(p in files)) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
        return files[p]!;
      },
      size: () => 1,
    };
    const m = await loadManifestText(
      `version: 1
colocation: { g: { shard_count: 4, anchor: warehouse } }
tables:
  warehouse: { distributed_by: w_id, colocation: g, columns: { w_id: integer, w_tax: integer } }
  audit: { columns: { a: integer } }
routines:
  pay: { file: routines/pay.sql, distributed_by: p_w, colocation: g }
`,
      'proj/citus-migrate.yaml',
      '/p',
      fs,
    );
    expect(m.warnings.map((w) => [w.code, w.file, w.line, w.path])).toEqual([
      ['statement_cross_shard', 'proj/routines/pay.sql', 5, 'routines.pay'],
      ['statement_coordinator', 'proj/routines/pay.sql', 6, 'routines.pay'],
    ]);
    expect(m.warnings[0]!.message).toBe(
      'cross_shard: public.warehouse by warehouse.w_id = p_c_w, not p_w (UPDATE warehouse SET w_tax = 1 WHERE w_id = p_c_w); the delegated call runs it as a distributed transaction from the worker',
    );
  });
});
