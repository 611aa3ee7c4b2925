// The plan's collation problems: a column given a collation neither the cluster has nor the
// manifest declares, and a collation dropped (to change it) while a kept column uses it.
import { describe, expect, it } from 'vitest';
import type { ClusterModel } from '../../src/model/types.js';
import { collationInUseProblems, missingCollationProblems } from '../../src/plan/checks/collation-problems.js';
import type { Step } from '../../src/plan/steps/steps.js';

const table = { schema: 'app', name: 't' };
const actual = {
  schemas: ['app'],
  tables: {
    'app.t': {
      id: 'app.t',
      qname: table,
      columns: [{ name: 'name', type: { name: 'text' }, notNull: false, collation: 'ci', collationSchema: 'app' }],
    },
  },
  groups: {},
  sequences: {},
  routines: {},
  objects: {},
} as unknown as ClusterModel;
const dropCollation = {
  kind: 'drop_object',
  object: 'collation app.ci',
  objectKind: 'collation',
  statements: ['DROP COLLATION app.ci'],
  reason: 'recreate',
} as unknown as Step;

describe('collation problems', () => {
  it('names a collation dropped while a column the plan keeps uses it', () => {
    expect(collationInUseProblems([dropCollation], actual).map((p) => [p.code, p.object])).toEqual([
      ['collation_in_use', 'collation app.ci'],
    ]);
    const dropTable = { kind: 'drop_table', table } as unknown as Step;
    expect(collationInUseProblems([dropTable, dropCollation], actual)).toEqual([]);
    expect(collationInUseProblems([], actual)).toEqual([]);
  });

  it('names a new column whose collation is nowhere, not one the cluster has or the manifest declares', () => {
    const add = {
      kind: 'add_column',
      table,
      column: { name: 'code', type: { name: 'text' }, notNull: false, collation: 'nocase', collationSchema: 'app' },
    } as unknown as Step;
    expect(missingCollationProblems([add], new Set()).map((p) => p.code)).toEqual(['collation_missing']);
    expect(missingCollationProblems([add], new Set(['app.nocase']))).toEqual([]);
  });
});
