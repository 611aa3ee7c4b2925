// CREATE TABLE for a table the cluster lacks, with what must come right after it. Pure.
import type { ClusterModel, Column, Table } from '../../model/types.js';
import type { Key } from '../../model/key-types.js';
import type { Step } from '../steps/steps.js';
import { ownGeneratedMerged } from './inherits.js';

/** The CREATE TABLE of `t` (its `columns`), then the keys and INHERIT it could not take. */
export function createTableSteps(t: Table, columns: readonly Column[], desired: ClusterModel): Step[] {
  // CREATE TABLE keeps one of keys with the same columns in the same order (and deferral):
  // PostgreSQL drops the others without a word. They are added after it, each an index of its own.
  const sig = (k: Key): string => JSON.stringify([k.columns, !!k.deferrable, !!k.initiallyDeferred]);
  const seen = new Set(t.primaryKey ? [sig(t.primaryKey)] : []);
  const inline = t.unique.filter((u) => !seen.has(sig(u)) && Boolean(seen.add(sig(u))));
  // PostgreSQL refuses CREATE TABLE … INHERITS whose own column gives the generation expression
  // of a parent's column ("child column specifies generation expression"); a table that
  // declares every column of its parents is made as such a table is: on its own, then INHERIT.
  const apart = t.inherits !== undefined && ownGeneratedMerged(t, desired);
  const steps: Step[] = [
    {
      kind: 'create_table',
      table: t.qname,
      columns: apart ? columns : columns.filter((c) => !c.inherited),
      ...(t.inherits && !apart ? { inherits: t.inherits.map((p) => desired.tables[p]!.qname) } : {}),
      ...(t.primaryKey ? { primaryKey: t.primaryKey } : {}),
      unique: inline,
      ...(t.unlogged ? { unlogged: true } : {}),
      ...(t.accessMethod ? { accessMethod: t.accessMethod } : {}),
      ...(t.partitionBy ? { partitionBy: t.partitionBy } : {}),
      ...(t.ofType !== undefined ? { ofType: t.ofType } : {}),
    },
  ];
  if (apart)
    for (const p of t.inherits!)
      steps.push({ kind: 'alter_table_inherit', table: t.qname, parent: desired.tables[p]!.qname, inherit: true });
  for (const u of t.unique) if (!inline.includes(u)) steps.push({ kind: 'add_unique', table: t.qname, key: u });
  return steps;
}
