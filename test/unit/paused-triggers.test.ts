// The triggers paused while Citus copies a table's rows into its shards (plan/checks/unsafe-triggers.ts,
// plan/checks/paused-triggers.ts): which steps pause them, and the exact statements around the copy.
import { describe, expect, it } from 'vitest';
import type { SqlObject } from '../../src/model/types.js';
import { pauseTriggersSql, RESUME_TRIGGERS_SQL } from '../../src/plan/checks/paused-triggers.js';
import { renderSql } from '../../src/plan/steps/step-spec.js';
import type { Step } from '../../src/plan/steps/steps.js';
import { markUnsafeTriggers } from '../../src/plan/checks/unsafe-triggers.js';
import { loadParser, tryParseStatements } from '../../src/sql/pg-parse.js';
import { localTable, modelOf } from '../support/model.js';

const trigger = (table: string, name: string): SqlObject => ({
  id: `trigger public.${table}.${name}`,
  kind: 'trigger',
  name: `public.${table}.${name}`,
  parent: `relation public.${table}`,
  create: [`CREATE TRIGGER ${name} BEFORE INSERT ON public.${table} FOR EACH ROW EXECUTE FUNCTION f()`],
  provides: [],
  deps: [],
});

const partitioned = {
  ...localTable('events'),
  partitionBy: 'RANGE (a)',
  partitions: [
    { name: 'events_a', bound: 'FOR VALUES FROM (0) TO (10)' },
    { name: 'events_b', bound: 'FOR VALUES FROM (10) TO (20)' },
  ],
};

const distribute = (table: string): Step => ({
  kind: 'distribute_table',
  table: { schema: 'public', name: table },
  column: 'id',
  colocateWith: 'none',
  shardCount: 4,
  group: table,
  copiesData: true,
});

describe('triggers paused around the copy of the rows', () => {
  it("pauses every trigger of a partitioned table around create_distributed_table when only a partition's has one", () => {
    const actual = { ...modelOf(partitioned), objects: { t: trigger('events_b', 'stamp') } };
    const [marked] = markUnsafeTriggers([distribute('events')], actual);
    expect(renderSql(marked!)).toEqual([
      'SET LOCAL search_path TO pg_catalog, pg_temp',
      'SET LOCAL check_function_bodies TO off',
      'SET LOCAL citus.enable_unsafe_triggers TO on',
      "SELECT pg_catalog.set_config('citus_migrate.pause_triggers_of', 'public.events', true)",
      pauseTriggersSql({ schema: 'public', name: 'events' })[1],
      "SELECT pg_catalog.create_distributed_table('public.events'::pg_catalog.regclass, 'id'::pg_catalog.text, colocate_with => 'none'::pg_catalog.text, shard_count => 4::pg_catalog.int4)",
      RESUME_TRIGGERS_SQL,
      'SET LOCAL citus.enable_unsafe_triggers TO off',
      'SET LOCAL check_function_bodies TO on',
      'SET LOCAL search_path TO pg_catalog, public',
    ]);
    // Without a trigger anywhere in it: the step as it was.
    expect(renderSql(markUnsafeTriggers([distribute('events')], modelOf(partitioned))[0]!)).toEqual([
      'SET LOCAL search_path TO pg_catalog, pg_temp',
      'SET LOCAL check_function_bodies TO off',
      "SELECT pg_catalog.create_distributed_table('public.events'::pg_catalog.regclass, 'id'::pg_catalog.text, colocate_with => 'none'::pg_catalog.text, shard_count => 4::pg_catalog.int4)",
      'SET LOCAL check_function_bodies TO on',
      'SET LOCAL search_path TO pg_catalog, public',
    ]);
  });

  it('passes the table by a setting: the DO blocks are the same text for any name, even one holding their dollar quote', async () => {
    await loadParser();
    const hostile = pauseTriggersSql({ schema: 'app', name: 'x$cm$; DROP TABLE y; --' });
    expect(hostile[0]).toBe(
      `SELECT pg_catalog.set_config('citus_migrate.pause_triggers_of', 'app."x$cm$; DROP TABLE y; --"', true)`,
    );
    expect(hostile[1]).toBe(pauseTriggersSql({ schema: 'public', name: 't' })[1]);
    for (const sql of [hostile[1]!, RESUME_TRIGGERS_SQL]) {
      const stmts = tryParseStatements(sql);
      expect(stmts?.map((s) => Object.keys(s.stmt ?? {})[0])).toEqual(['DoStmt']);
    }
    // Every function and operator qualified; each state restored word for word.
    expect(RESUME_TRIGGERS_SQL).toBe(`DO $cm$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT x OPERATOR(pg_catalog.->>) 0 AS nspname, x OPERATOR(pg_catalog.->>) 1 AS relname,
      x OPERATOR(pg_catalog.->>) 2 AS tgname, x OPERATOR(pg_catalog.->>) 3 AS state
    FROM pg_catalog.jsonb_array_elements(pg_catalog.current_setting('citus_migrate.paused_triggers')::pg_catalog.jsonb) AS x
  LOOP
    EXECUTE pg_catalog.format('ALTER TABLE %I.%I %s TRIGGER %I', r.nspname, r.relname, CASE WHEN r.state OPERATOR(pg_catalog.=) 'O' THEN 'ENABLE' WHEN r.state OPERATOR(pg_catalog.=) 'A' THEN 'ENABLE ALWAYS'
      WHEN r.state OPERATOR(pg_catalog.=) 'R' THEN 'ENABLE REPLICA' ELSE 'DISABLE' END, r.tgname);
  END LOOP;
END
$cm$`);
    expect(hostile[1]).toContain('WHERE NOT tg.tgisinternal');
  });
});
