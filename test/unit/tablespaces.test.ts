// Tablespaces and owned sequences' persistence in the sql: files: what the statements declare,
// where a new partition goes, which moves carry a hazard, and what Citus cannot do (pure).
import { beforeAll, describe, expect, it } from 'vitest';
import { objectsFromSql } from '../../src/objects/from-sql.js';
import { loadParser } from '../../src/sql/pg-parse.js';
import {
  citusTablespaceProblems,
  partitionTablespace,
  tablespaceOf,
  withoutFollowedSequenceDrops,
  withTablespaceMoves,
} from '../../src/plan/diff/tablespaces.js';
import type { ClusterModel, Sequence, SqlObject, Table } from '../../src/model/types.js';
import { sequenceSteps } from '../../src/plan/diff/sequences.js';
import type { Step } from '../../src/plan/steps/steps.js';
import { localTable, modelOf } from '../support/model.js';

beforeAll(async () => {
  await loadParser();
});

const read = (text: string) => objectsFromSql([{ file: 'table-options.sql', text }], 'public', () => '');

const object = (kind: SqlObject['kind'], name: string, create: string[], drop: string[] = []): SqlObject => ({
  id: `${kind} ${name}`,
  kind,
  name,
  create,
  drop,
  deps: [],
  provides: [],
});

const withObjects = (m: ClusterModel, ...objects: SqlObject[]): ClusterModel => ({
  ...m,
  objects: Object.fromEntries(objects.map((o) => [o.id, o])),
});

const parted: Table = {
  ...localTable('pt'),
  partitionBy: 'RANGE (a)',
  partitions: [{ name: 'pt1', bound: "FOR VALUES FROM ('0') TO ('10')" }],
};

describe('the sql: files', () => {
  it('declare a table’s, a partition’s and an index’s tablespace, and an owned sequence’s persistence', () => {
    const { objects, problems } = read(`ALTER TABLE t SET TABLESPACE fast;
ALTER INDEX t_pkey SET TABLESPACE "Slow";
ALTER SEQUENCE t_id_seq SET UNLOGGED;
`);
    expect(problems).toEqual([]);
    expect(Object.keys(objects).sort()).toEqual([
      'sequence persistence public.t_id_seq',
      'tablespace public.t',
      'tablespace public.t_pkey',
    ]);
    expect(objects['tablespace public.t_pkey']!.deps).toContain('index public.t_pkey');
    expect(objects['sequence persistence public.t_id_seq']!.deps).toContain('sequence public.t_id_seq');
    expect(tablespaceOf(objects['tablespace public.t_pkey']!.create[0])).toBe('"Slow"');
  });

  it('refuse a materialized view’s SET TABLESPACE and other ALTER SEQUENCEs (sequences are the manifest’s)', () => {
    const { problems } = read(`ALTER MATERIALIZED VIEW mv SET TABLESPACE fast;
ALTER SEQUENCE s RESTART;
`);
    expect(problems.map((p) => `${p.where} ${p.message}`)).toEqual([
      expect.stringMatching(/^table-options\.sql:1:1 write TABLESPACE in the CREATE MATERIALIZED VIEW/),
      'table-options.sql:2:1 AlterSeq statements are not managed in SQL files',
    ]);
  });
});

describe('a new partition', () => {
  it('says TABLESPACE where its parent is in one: its own, or the database’s', () => {
    const actual = withObjects(
      modelOf(parted),
      object(
        'tablespace',
        'public.pt',
        ['ALTER TABLE public.pt SET TABLESPACE fast'],
        ['ALTER TABLE public.pt SET TABLESPACE pg_default'],
      ),
    );
    const p = { name: 'pt2', bound: "FOR VALUES FROM ('10') TO ('20')" };
    expect(partitionTablespace(modelOf(parted), actual, parted, p)).toBe('pg_default');
    const own = withObjects(
      modelOf(parted),
      object('tablespace', 'public.pt2', ['ALTER TABLE public.pt2 SET TABLESPACE slow']),
    );
    expect(partitionTablespace(own, actual, parted, p)).toBe('slow');
    // A parent in the database's tablespace: PostgreSQL's default is the partition's.
    expect(partitionTablespace(own, modelOf(parted), parted, p)).toBeUndefined();
  });
});

describe('moving a relation', () => {
  const step = (name: string): Step => ({
    kind: 'create_object',
    object: `tablespace ${name}`,
    objectKind: 'tablespace',
    statements: [`ALTER TABLE ${name} SET TABLESPACE fast`],
    recreate: false,
  });

  it('the cluster holds rewrites it; one the plan makes does not', () => {
    const actual = modelOf({ ...localTable('t', { pk: { name: 't_pkey', columns: ['id'] } }) }, parted);
    const moved = withTablespaceMoves(
      [step('public.t'), step('public.t_pkey'), step('public.pt1'), step('public.new')],
      actual,
    );
    expect(moved.map((s) => (s.kind === 'create_object' ? (s.moves ?? false) : undefined))).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('a sequence’s own persistence is not pruned where its table’s changes (ALTER TABLE sets it)', () => {
    const drop: Step = {
      kind: 'drop_object',
      object: 'sequence persistence public.u_id_seq',
      objectKind: 'sequence persistence',
      statements: ['ALTER SEQUENCE public.u_id_seq SET UNLOGGED'],
      reason: 'prune',
      parent: 'relation public.u',
    };
    const persistence: Step = {
      kind: 'alter_table_persistence',
      table: { schema: 'public', name: 'u' },
      unlogged: false,
    };
    expect(withoutFollowedSequenceDrops([persistence, drop])).toEqual([persistence]);
    expect(withoutFollowedSequenceDrops([drop])).toEqual([drop]);
  });
});

describe('on Citus', () => {
  it('a Citus table, its partition or its index in a tablespace is a plan problem', () => {
    const dist: Table = {
      ...parted,
      distribution: { kind: 'hash', column: 'a', group: 'g' },
    };
    const desired = withObjects(
      modelOf(dist, localTable('l')),
      object('tablespace', 'public.pt1', ['ALTER TABLE public.pt1 SET TABLESPACE fast']),
      {
        ...object('index', 'public.pt_b', ['CREATE INDEX pt_b ON public.pt USING btree (b) TABLESPACE fast']),
        parent: 'relation public.pt',
      },
      {
        ...object('index', 'public.pt_c', ['CREATE INDEX pt_c ON public.pt USING btree (b)']),
        parent: 'relation public.pt',
      },
      object('tablespace', 'public.l', ['ALTER TABLE public.l SET TABLESPACE fast']),
    );
    expect(citusTablespaceProblems(desired).map((p) => `${p.code} ${p.object}`)).toEqual([
      'citus_tablespace tablespace public.pt1',
      'citus_tablespace index public.pt_b',
    ]);
  });
});

describe('a sequence a column owns', () => {
  const seq = (name: string, extra: Partial<Sequence> = {}): Sequence => ({
    id: `public.${name}`,
    qname: { schema: 'public', name },
    type: 'bigint',
    cache: '5',
    cycle: false,
    ...extra,
  });
  const unlogged: Table = { ...localTable('u'), unlogged: true };
  const owned = { ownedBy: { table: 'public.u', column: 'id' } };
  const kinds = (steps: Step[]) =>
    steps.map((s) =>
      s.kind === 'create_sequence'
        ? `create ${s.sequence.unlogged ? 'unlogged' : 'logged'}`
        : s.kind === 'alter_sequence_persistence'
          ? `set ${s.unlogged ? 'unlogged' : 'logged'}`
          : s.kind,
    );

  it('is made logged or not as its table is', () => {
    const desired = { ...modelOf(unlogged), sequences: { 'public.s': seq('s', owned) } };
    expect(kinds(sequenceSteps(desired, modelOf(unlogged), new Set(), []))).toEqual([
      'create unlogged',
      'set_sequence_owner',
    ]);
  });

  it('takes its table’s persistence when a column comes to own it, and the declared one when none does any more', () => {
    const comes = sequenceSteps(
      { ...modelOf(unlogged), sequences: { 'public.s': seq('s', owned) } },
      { ...modelOf(unlogged), sequences: { 'public.s': seq('s') } },
      new Set(),
      [],
    );
    expect(kinds(comes)).toEqual(['set unlogged', 'set_sequence_owner']);
    const goes = sequenceSteps(
      { ...modelOf(unlogged), sequences: { 'public.s': seq('s') } },
      { ...modelOf(unlogged), sequences: { 'public.s': seq('s', owned) } },
      new Set(),
      [],
    );
    expect(kinds(goes)).toEqual(['set logged', 'set_sequence_owner']);
  });
});
