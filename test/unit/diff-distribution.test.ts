// distributionSteps on pairs of models (desired, actual → steps), table-driven: the hardest part
// of the diff, tested directly rather than only through scenarios on a cluster.
import { describe, expect, it } from 'vitest';
import type { ClusterModel, ColocationGroup, Distribution, Table } from '../../src/model/types.js';
import { distributionSteps } from '../../src/plan/diff/distribution.js';
import type { Step } from '../../src/plan/steps/steps.js';

type Layout = Record<string, Distribution>;

/** A model from table -> distribution, with groups as given (name -> [shard count, members…]). */
function model(tables: Layout, groups: Record<string, [number, ...string[]]> = {}): ClusterModel {
  const t: Record<string, Table> = {};
  for (const [name, distribution] of Object.entries(tables)) {
    t[`public.${name}`] = {
      id: `public.${name}`,
      qname: { schema: 'public', name },
      unique: [],
      indexes: [],
      foreignKeys: [],
      distribution,
    };
  }
  const g: Record<string, ColocationGroup> = {};
  for (const [name, [shardCount, ...members]] of Object.entries(groups)) {
    g[name] = { name, shardCount, anchor: `public.${members[0]}`, members: members.map((m) => `public.${m}`) };
  }
  return { schemas: ['public'], objects: {}, tables: t, groups: g, sequences: {}, routines: {} };
}

const hash = (column: string, group: string): Distribution => ({ kind: 'hash', column, group });
const local: Distribution = { kind: 'local' };
const reference: Distribution = { kind: 'reference' };

/** Steps in a compact form: kind and the fields that say what it does. */
function brief(steps: Step[]): string[] {
  return steps.map((s) => {
    const r = s as unknown as Record<string, unknown>;
    const name = (r.table as { name: string }).name;
    const extra = ['column', 'shardCount', 'colocateWith', 'cascade', 'copiesData']
      .filter((k) => r[k] !== undefined)
      .map((k) => `${k}=${typeof r[k] === 'object' ? (r[k] as { name: string }).name : String(r[k])}`);
    return [s.kind, name, ...extra].join(' ');
  });
}

interface Case {
  name: string;
  desired: ClusterModel;
  actual: ClusterModel;
  steps: string[];
  created?: string[];
}

const CASES: Case[] = [
  {
    name: 'new tables: the anchor distributed first, members colocated with it',
    desired: model({ a: hash('t', 'g'), b: hash('t', 'g') }, { g: [8, 'a', 'b'] }),
    actual: model({}),
    created: ['a', 'b'],
    steps: [
      'distribute_table a column=t shardCount=8 colocateWith=none copiesData=false',
      'distribute_table b column=t colocateWith=a copiesData=false',
    ],
  },
  {
    name: 'existing local tables with rows: copied, then truncated locally',
    desired: model({ a: hash('t', 'g'), r: reference }, { g: [4, 'a'] }),
    actual: model({ a: local, r: local }),
    steps: [
      'create_reference_table r copiesData=true',
      'distribute_table a column=t shardCount=4 colocateWith=none copiesData=true',
      'truncate_local_data r',
      'truncate_local_data a',
    ],
  },
  {
    name: 'converged: nothing',
    desired: model({ a: hash('t', 'g'), b: hash('t', 'g'), r: reference }, { g: [4, 'a', 'b'] }),
    actual: model({ a: hash('t', 'c1'), b: hash('t', 'c1'), r: reference }, { c1: [4, 'a', 'b'] }),
    steps: [],
  },
  {
    name: 'shard count changed: the group is altered with cascade',
    desired: model({ a: hash('t', 'g'), b: hash('t', 'g') }, { g: [16, 'a', 'b'] }),
    actual: model({ a: hash('t', 'c1'), b: hash('t', 'c1') }, { c1: [4, 'a', 'b'] }),
    steps: ['alter_distributed_table a shardCount=16 cascade=true'],
  },
  {
    name: 'a member on another column: redistributed by the new column, colocated with the target',
    desired: model({ a: hash('t', 'g'), b: hash('u', 'g') }, { g: [4, 'a', 'b'] }),
    actual: model({ a: hash('t', 'c1'), b: hash('t', 'c1') }, { c1: [4, 'a', 'b'] }),
    steps: ['alter_distributed_table b column=u colocateWith=a cascade=false'],
  },
  {
    name: 'a member in another group with the same shard count: update_colocation',
    desired: model({ a: hash('t', 'g'), b: hash('t', 'g') }, { g: [4, 'a', 'b'] }),
    actual: model({ a: hash('t', 'c1'), b: hash('t', 'c2') }, { c1: [4, 'a'], c2: [4, 'b'] }),
    steps: ['update_colocation b colocateWith=a'],
  },
  {
    name: 'a member in a group of another shard count: moved with alter_distributed_table',
    desired: model({ a: hash('t', 'g'), b: hash('t', 'g') }, { g: [4, 'a', 'b'] }),
    actual: model({ a: hash('t', 'c1'), b: hash('t', 'c2') }, { c1: [4, 'a'], c2: [8, 'b'] }),
    steps: ['alter_distributed_table b colocateWith=a cascade=false'],
  },
  {
    name: 'two declared groups sharing one actual group: the first leaves it for a fresh group, the second then resizes what is left (never both by cascade)',
    desired: model({ a: hash('t', 'g'), b: hash('t', 'h') }, { g: [4, 'a'], h: [8, 'b'] }),
    actual: model({ a: hash('t', 'c1'), b: hash('t', 'c1') }, { c1: [4, 'a', 'b'] }),
    steps: [
      'alter_distributed_table a shardCount=4 colocateWith=none cascade=false',
      'alter_distributed_table b shardCount=8 cascade=true',
    ],
  },
  {
    name: 'the anchor on the wrong column and no member usable: the anchor is redistributed into a fresh group',
    desired: model({ a: hash('u', 'g') }, { g: [4, 'a'] }),
    actual: model({ a: hash('t', 'c1') }, { c1: [4, 'a'] }),
    steps: ['alter_distributed_table a column=u shardCount=4 colocateWith=none cascade=false'],
  },
  {
    name: 'a reference table made distributed: undistributed first',
    desired: model({ a: hash('t', 'g') }, { g: [4, 'a'] }),
    actual: model({ a: reference }),
    steps: [
      'undistribute_table a',
      'distribute_table a column=t shardCount=4 colocateWith=none copiesData=true',
      'truncate_local_data a',
    ],
  },
  {
    name: 'a distributed table declared local: undistributed',
    desired: model({ a: local }),
    actual: model({ a: hash('t', 'c1') }, { c1: [4, 'a'] }),
    steps: ['undistribute_table a'],
  },
  {
    name: 'a table neither declared present nor created: left alone',
    desired: model({ a: hash('t', 'g') }, { g: [4, 'a'] }),
    actual: model({}),
    steps: [],
  },
];

describe('distributionSteps', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const created = new Set((c.created ?? []).map((n) => `public.${n}`));
    const present = (id: string): boolean => c.actual.tables[id] !== undefined || created.has(id);
    expect(brief(distributionSteps(c.desired, c.actual, present))).toEqual(c.steps);
  });
});
