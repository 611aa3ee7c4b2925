// Citus refuses to distribute a table by a column that its primary key, a unique constraint or
// a unique index leaves out ("cannot create constraint on …", DETAIL: "Distributed relations
// cannot have UNIQUE, EXCLUDE, or PRIMARY KEY constraints that do not include the partition
// column"). validate checks the keys a manifest declares; a table that exists keeps the
// keys it has unless the plan drops them (prune, or to add them again), so those are checked
// here, before anything runs.
import type { ClusterModel } from '../../model/types.js';
import { quoteIdent } from '../../sql/quote.js';
import type { DiffProblem } from '../problem.js';
import { tableOf } from '../steps/step-spec.js';
import type { Step } from '../steps/steps.js';
import { tableRef } from '../../model/object-ref.js';

const cols = (c: readonly string[]): string => `(${c.map(quoteIdent).join(', ')})`;

/** A problem for each existing table a step distributes by a column one of its keys leaves out. */
export function distributionKeyProblems(steps: readonly Step[], actual: ClusterModel): DiffProblem[] {
  const problems: DiffProblem[] = [];
  const droppedIndexes = new Set(
    steps.flatMap((s) =>
      s.kind === 'drop_index' && !s.recreate ? [JSON.stringify([s.index.schema, s.index.name])] : [],
    ),
  );
  const droppedKeys = new Set(
    steps.flatMap((s) => (s.kind === 'drop_constraint' ? [JSON.stringify([tableOf(s), s.name])] : [])),
  );
  for (const s of steps) {
    const column =
      s.kind === 'distribute_table' || s.kind === 'distribute_table_concurrently'
        ? s.column
        : s.kind === 'alter_distributed_table'
          ? s.column
          : undefined;
    const id = column !== undefined ? tableOf(s) : undefined;
    const t = id !== undefined ? actual.tables[id] : undefined;
    if (column === undefined || !t) continue;
    const kept = (k: { name?: string }): boolean => !droppedKeys.has(JSON.stringify([id, k.name ?? '']));
    const keys = [
      ...(t.primaryKey && kept(t.primaryKey) ? [{ what: 'primary key', columns: t.primaryKey.columns }] : []),
      ...t.unique.filter(kept).map((u) => ({ what: 'unique constraint', columns: u.columns })),
      ...t.indexes
        .filter((i) => i.unique && !droppedIndexes.has(JSON.stringify([t.qname.schema, i.name ?? ''])))
        .map((i) => ({ what: `unique index${i.name ? ` ${quoteIdent(i.name)}` : ''}`, columns: i.columns })),
    ];
    const seen = new Set<string>();
    for (const k of keys) {
      if (k.columns.includes(column) || seen.has(JSON.stringify(k.columns))) continue;
      seen.add(JSON.stringify(k.columns));
      problems.push({
        code: 'key_without_distribution_column',
        object: tableRef(id!),
        message: `its ${k.what} ${cols(k.columns)} does not include the distribution column ${quoteIdent(column)}: Citus refuses to distribute it ("cannot create constraint on …": a distributed table's UNIQUE, EXCLUDE and PRIMARY KEY constraints must include it); add the column to the key, or distribute by one of the key's columns`,
      });
    }
  }
  return problems;
}

/**
 * A problem for each NOT NULL a step drops from a column that the table's primary key holds:
 * PostgreSQL refuses it (`column "x" is in a primary key`) while the key is there.
 */
export function nullableKeyProblems(steps: readonly Step[], actual: ClusterModel): DiffProblem[] {
  const problems: DiffProblem[] = [];
  // A primary key this plan drops (pruned, or to add it again changed) no longer holds its columns.
  const dropped = new Set(
    steps.flatMap((s) => (s.kind === 'drop_constraint' && s.constraint === 'primary key' ? [tableOf(s)] : [])),
  );
  for (const s of steps) {
    if (s.kind !== 'alter_column_not_null' || s.notNull) continue;
    const id = tableOf(s);
    if (dropped.has(id)) continue;
    const key = id !== undefined ? actual.tables[id]?.primaryKey : undefined;
    if (!key?.columns.includes(s.column)) continue;
    problems.push({
      code: 'nullable_key_column',
      object: tableRef(id!),
      message: `the manifest declares ${quoteIdent(s.column)} nullable, but it is in the primary key ${cols(key.columns)} the cluster keeps (prune is off, or something keeps the key): PostgreSQL refuses DROP NOT NULL there ("column is in a primary key"); declare it not_null, or let prune drop the key, or drop it by hand first`,
    });
  }
  return problems;
}
