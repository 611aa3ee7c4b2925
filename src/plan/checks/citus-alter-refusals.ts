// Table settings Citus refuses to change on its tables: ALTER TABLE … CLUSTER ON / SET WITHOUT
// CLUSTER and ALTER COLUMN … SET STATISTICS, SET STORAGE and SET (…) fail with "alter table command is currently
// unsupported" on a distributed, reference or Citus local table (Citus 13.2's
// ErrorIfUnsupportedAlterTableStmt; docs/citus-facts.md). create_distributed_table copies both
// to the shards, so a new table's column statistics and storage (set in the tables phase, before
// it is distributed) go through (a partition's own, SQL objects set after, do not); CLUSTER ON, set with the SQL objects after distribution, cannot.
// REPLICA IDENTITY and ALTER INDEX … SET STATISTICS are propagated: not refused. On a hash-
// distributed table's distribution column, Citus also refuses SET / DROP DEFAULT and DROP NOT
// NULL ("cannot execute ALTER TABLE command involving partition column"; SET NOT NULL goes
// through): a primary key that prune drops no longer holds the column NOT NULL.
import { idOf, partitionQname, type ClusterModel } from '../../model/types.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';
import { columnRef, relationRef } from '../../model/object-ref.js';

const citusTable = (m: ClusterModel, id: string): boolean => {
  const kind = m.tables[id]?.distribution.kind;
  return kind !== undefined && kind !== 'local';
};

/** A problem for each step that changes a setting Citus refuses to change on a Citus table. */
export function citusAlterRefusals(steps: readonly Step[], desired: ClusterModel, actual: ClusterModel): DiffProblem[] {
  const problems: DiffProblem[] = [];
  // The partitions of Citus tables ("relation app.p1"): their own column statistics and options are refused too.
  const citusPartitions = new Set(
    [desired, actual].flatMap((m) =>
      Object.values(m.tables)
        .filter((t) => t.distribution.kind !== 'local')
        .flatMap((t) => (t.partitions ?? []).map((p) => relationRef(partitionQname(t, p)))),
    ),
  );
  for (const s of steps) {
    const a = 'table' in s && 'column' in s ? actual.tables[idOf(s.table)] : undefined;
    const onDistColumn = a?.distribution.kind === 'hash' && 'column' in s && a.distribution.column === s.column;
    if (onDistColumn && (s.kind === 'alter_column_default' || (s.kind === 'alter_column_not_null' && !s.notNull)))
      problems.push({
        code: 'citus_refuses_alter',
        object: columnRef(s.table, s.column),
        message: `is the distribution column: Citus refuses ${s.kind === 'alter_column_default' ? 'SET / DROP DEFAULT' : 'DROP NOT NULL'} on it ("cannot execute ALTER TABLE command involving partition column")${s.kind === 'alter_column_not_null' ? '; declare it not_null' : ''}`,
      });
    if (
      (s.kind === 'alter_column_statistics' ||
        s.kind === 'alter_column_options' ||
        s.kind === 'alter_column_storage') &&
      citusTable(actual, idOf(s.table))
    )
      problems.push({
        code: 'citus_refuses_alter',
        object: columnRef(s.table, s.column),
        message: `Citus refuses ALTER COLUMN … ${s.kind === 'alter_column_options' ? 'SET / RESET (n_distinct …)' : s.kind === 'alter_column_storage' ? 'SET STORAGE' : 'SET STATISTICS'} on a distributed, reference or Citus local table ("alter table command is currently unsupported"): change it on the shards by hand, or leave it as it is`,
      });
    if (
      (s.kind === 'create_object' || s.kind === 'alter_object' || s.kind === 'drop_object') &&
      s.objectKind === 'column setting' &&
      citusPartitions.has(relationRef(s.object.slice('column setting '.length).replace(/\.[^.]+$/, '')))
    )
      problems.push({
        code: 'citus_refuses_alter',
        object: s.object,
        message:
          'Citus refuses ALTER COLUMN … SET STATISTICS, SET STORAGE and SET (…) on a partition of a distributed, reference or Citus local table ("alter table command is currently unsupported"): change it on the shards by hand, or leave it as it is',
      });
    if (
      (s.kind === 'create_object' || s.kind === 'alter_object' || s.kind === 'drop_object') &&
      s.objectKind === 'cluster on'
    ) {
      const table = s.object.slice('cluster on '.length);
      if (citusTable(desired, table) || citusTable(actual, table))
        problems.push({
          code: 'citus_refuses_alter',
          object: s.object,
          message:
            'Citus refuses ALTER TABLE … CLUSTER ON / SET WITHOUT CLUSTER on a distributed, reference or Citus local table ("alter table command is currently unsupported"): set it on the table before it is distributed, or leave it out',
        });
    }
  }
  return problems;
}
