// `plan --shards`'s comparison (pure): a shard compared with its table names each difference as a
// repair step or a problem, and the repair renders to one statement on the coordinator.
import { describe, expect, it } from 'vitest';
import type { RelationFacts, ShardState } from '../../src/introspect/read-shards.js';
import { checkShards } from '../../src/plan/diff/shard-check.js';
import { renderSql, summarize } from '../../src/plan/steps/step-spec.js';

const idx = (name: string, valid: boolean, constraint: string | null, cols: string[]) => ({
  name,
  schema: 'app',
  valid,
  constraint,
  definition: `CREATE INDEX ${name} ON app.t USING btree (${cols.join(', ')})`,
  shape: [constraint !== null, 'btree', cols, null],
});

const TABLE: RelationFacts = {
  key: '["app","t"]',
  exists: true,
  columns: [
    ['id', 'bigint', true],
    ['b', 'text', false],
  ],
  indexes: [idx('t_pkey', true, 't_pkey', ['id']), idx('t_b', true, null, ['b'])],
  constraints: [
    { name: 't_pkey', type: 'p', definition: 'PRIMARY KEY (id)', columns: ['id'] },
    { name: 't_b_check', type: 'c', definition: "CHECK (b <> '')", columns: ['b'] },
    { name: 't_b_fkey', type: 'f', definition: 'FOREIGN KEY (b) REFERENCES app.r(b)', columns: ['b'] },
  ],
  triggers: [{ name: 't_touch', function: 'app.touch()', definition: 'CREATE TRIGGER t_touch …' }],
};

function state(shard: Partial<RelationFacts>): ShardState {
  const p = { table: ['app', 't'] as [string, string], shardId: 102008, shard: 'app.t_102008', group: 1 };
  return {
    tables: { [TABLE.key]: TABLE },
    placements: [
      {
        ...p,
        host: 'w1',
        port: 5432,
        facts: {
          ...TABLE,
          key: '102008@1',
          indexes: [idx('t_pkey_102008', true, 't_pkey_102008', ['id']), idx('t_b_102008', true, null, ['b'])],
          triggers: [{ name: 't_touch_102008', function: 'app.touch()', definition: '' }],
          ...shard,
        },
      },
    ],
    unreachable: [],
  };
}

describe('checkShards', () => {
  it('a shard like its table: nothing', () => {
    expect(checkShards(state({}))).toEqual({ steps: [], problems: [] });
  });

  it("a foreign key to a table without a placement on the shard's node is not expected there (a reference table's key to a citus_local table)", () => {
    const fk = { name: 't_r_fkey', type: 'f', definition: 'FOREIGN KEY (b) REFERENCES app.cl(b)', columns: ['b'] };
    const withFk = {
      ...TABLE,
      constraints: [...TABLE.constraints!, { ...fk, refTable: ['app', 'cl'] as [string, string] }],
    };
    const cl = {
      table: ['app', 'cl'] as [string, string],
      shardId: 9,
      shard: 'app.cl_9',
      group: 0,
      host: 'c',
      port: 1,
    };
    const s = state({});
    const on = (group: number): ShardState => ({
      ...s,
      tables: { [TABLE.key]: withFk },
      placements: [{ ...s.placements[0]!, group }, cl],
    });
    expect(checkShards(on(1)).problems).toEqual([]);
    expect(checkShards(on(0)).problems.map((p) => p.message)).toEqual([
      'foreign key t_r_fkey is missing (FOREIGN KEY (b) REFERENCES app.cl(b))',
    ]);
  });

  it('a missing index, an invalid one, a missing check constraint and trigger: one repair step each', () => {
    const r = checkShards(
      state({
        indexes: [idx('t_pkey_102008', false, 't_pkey_102008', ['id'])],
        constraints: TABLE.constraints!.filter((c) => c.type !== 'c'),
        triggers: [],
      }),
    );
    expect(r.problems).toEqual([]);
    expect(r.steps.map((s) => [s.repair, s.finding, s.ddl])).toEqual([
      ['create_index', 'index t_b is missing', 'CREATE INDEX t_b ON app.t USING btree (b)'],
      ['reindex', 'index t_pkey_102008 is invalid', 'app.t_pkey_102008'],
      [
        'add_constraint',
        'constraint t_b_check is missing',
        "ALTER TABLE app.t ADD CONSTRAINT t_b_check CHECK (b <> '')",
      ],
      ['create_trigger', 'trigger t_touch is missing', 'CREATE TRIGGER t_touch …'],
    ]);
  });

  it('what no step repairs is a problem naming the shard and its node: a foreign key, a column, an extra index, a missing shard, a node that did not answer', () => {
    const r = checkShards(
      state({
        columns: [['id', 'bigint', true]],
        constraints: TABLE.constraints!.filter((c) => c.type !== 'f'),
        indexes: [...state({}).placements[0]!.facts!.indexes!, idx('t_extra_102008', true, null, ['id', 'b'])],
      }),
    );
    expect(r.steps).toEqual([]);
    expect(r.problems.map((p) => `${p.code}: ${p.object}: ${p.message}`)).toEqual([
      'shard_column_differs: shard app.t_102008 (102008) of table app.t on w1:5432: column b text is not on the shard as the coordinator has it',
      "shard_extra_index: shard app.t_102008 (102008) of table app.t on w1:5432: the shard has index t_extra_102008, which the coordinator's table does not",
      'shard_constraint_missing: shard app.t_102008 (102008) of table app.t on w1:5432: foreign key t_b_fkey is missing (FOREIGN KEY (b) REFERENCES app.r(b))',
    ]);
    expect(checkShards(state({ exists: false })).problems.map((p) => p.code)).toEqual(['shard_missing']);
    const down = { ...state({}), unreachable: [{ host: 'w1', port: 5432, error: 'connection refused' }] };
    expect(checkShards(down).problems.map((p) => `${p.object}: ${p.message}`)).toEqual([
      'node w1:5432: its shards could not be read (connection refused); plan --shards checks nothing there',
    ]);
  });

  it('renders a repair as one DO block that runs the statement on the node and raises what the node said', () => {
    const [step] = checkShards(state({ indexes: [idx('t_pkey_102008', true, 't_pkey_102008', ['id'])] })).steps;
    expect(summarize(step!)).toBe(
      'repair shard app.t_102008 (102008) on w1:5432: index t_b is missing; create the missing index',
    );
    expect(renderSql(step!)).toEqual([
      'SET search_path TO pg_catalog, pg_temp',
      'SET check_function_bodies TO off',
      `DO 'DECLARE r record;
BEGIN
  SELECT * INTO r FROM pg_catalog.master_run_on_worker(ARRAY[''w1''], ARRAY[5432], ARRAY[''SELECT pg_catalog.worker_apply_shard_ddl_command(102008, ''''app'''', ''''CREATE INDEX t_b ON app.t USING btree (b)'''')''], false);
  IF NOT r.success THEN
    RAISE EXCEPTION ''repairing shard % on %:% failed: %'', 102008, ''w1'', 5432, r.result;
  END IF;
END'`,
      'SET check_function_bodies TO on',
      'SET search_path TO pg_catalog, public',
    ]);
  });
});
