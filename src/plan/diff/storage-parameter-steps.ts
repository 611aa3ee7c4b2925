// A table's storage parameters (fillfactor, autovacuum_*, toast.*): SET what the manifest gives
// and the table has otherwise, RESET what it has and the manifest does not give. toast.* needs a
// TOAST table: PostgreSQL accepts the SET and keeps nothing without one, so the plan would never
// converge: a problem, unless the plan adds a column (which may bring one). A table the plan
// distributes gets them after: create_distributed_table gives no shard its TOAST table's. Pure.
import { parameterChanges } from '../../model/storage-parameters.js';
import type { Column, Table } from '../../model/types.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';

export function storageParameterSteps(
  t: Table,
  a: Table | undefined,
  addsColumns: boolean,
  problems: DiffProblem[],
): Step[] {
  if (t.columns === undefined || t.partitionBy !== undefined) return [];
  const { set, reset } = parameterChanges(t.storageParameters ?? {}, a?.storageParameters ?? {});
  const toast = set.filter(([k]) => k.startsWith('toast.'));
  if (a?.toast === false && toast.length > 0 && !addsColumns) {
    problems.push({
      code: 'toast_parameters_without_toast',
      object: t.id,
      message: `has no TOAST table (none of its columns is stored out of line), so PostgreSQL keeps none of ${toast.map(([k]) => k).join(', ')}: drop them from storage_parameters`,
    });
    return [];
  }
  if (set.length === 0 && reset.length === 0) return [];
  // Distributed by this plan: set after, so that every shard gets its TOAST table's too.
  const distributedHere =
    t.distribution.kind !== 'local' && (a === undefined || a.distribution.kind !== t.distribution.kind);
  return [
    {
      kind: 'alter_table_storage_parameters',
      table: t.qname,
      set,
      reset,
      ...(distributedHere && set.some(([k]) => k.startsWith('toast.')) ? { afterDistribution: true } : {}),
    },
  ];
}

/** SET COMPRESSION and attribute options of a column as it is (`ac`), or of a new one (its COMPRESSION in its definition). */
export function columnOptionSteps(t: Table, c: Column, ac?: Column): Step[] {
  const steps: Step[] = [];
  if (ac && (c.compression ?? 'default') !== (ac.compression ?? 'default'))
    steps.push({
      kind: 'alter_column_compression',
      table: t.qname,
      column: c.name,
      compression: c.compression ?? 'default',
    });
  const want = c.options ?? {};
  const have = ac?.options ?? {};
  const set = Object.entries(want).filter(([k, v]) => have[k] === undefined || Number(have[k]) !== Number(v));
  const reset = Object.keys(have).filter((k) => want[k] === undefined);
  if (set.length > 0 || reset.length > 0)
    steps.push({
      kind: 'alter_column_options',
      table: t.qname,
      column: c.name,
      set,
      reset,
      ...(t.partitionBy !== undefined ? { only: true as const } : {}),
    });
  return steps;
}

/** SET STORAGE, SET STATISTICS and attribute options for the new columns that declare them. */
export function columnStorageSteps(t: Table, columns: readonly Column[]): Step[] {
  return columns.flatMap((c) => [
    ...columnOptionSteps(t, c),
    ...(c.storage
      ? [{ kind: 'alter_column_storage' as const, table: t.qname, column: c.name, storage: c.storage }]
      : []),
    ...(c.statistics !== undefined
      ? [
          {
            kind: 'alter_column_statistics' as const,
            table: t.qname,
            column: c.name,
            statistics: c.statistics,
            ...(t.partitionBy !== undefined ? { only: true as const } : {}),
          },
        ]
      : []),
  ]);
}
