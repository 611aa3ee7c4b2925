// A partition the manifest declares that is a table of its own in the cluster: attached (ALTER
// TABLE … ATTACH PARTITION), not created again ("relation … already exists"), when PostgreSQL
// would take it: the parent's columns with the same types and no more, its NOT NULLs and CHECK
// constraints. Otherwise the plan names a problem. The other way round is diff/partition-detach.ts.
import { idOf, partitionQname, type ClusterModel, type Partition, type Table } from '../../model/types.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';
import { relationRef, tableRef } from '../../model/object-ref.js';

/** ATTACH PARTITION of an existing table, `refused` (a problem is pushed), or undefined (no such table). */
export function attachPartition(
  desired: ClusterModel,
  actual: ClusterModel,
  t: Table,
  p: Partition,
  problems: DiffProblem[],
): Step | 'refused' | undefined {
  const childId = idOf(partitionQname(t, p));
  const child = actual.tables[childId];
  if (!child) return undefined;
  const refuse = (why: string): 'refused' => {
    problems.push({
      code: 'partition_attach',
      object: tableRef(childId),
      message: `is a table of its own in the cluster and a partition of ${t.id} in the manifest, but ${why}: PostgreSQL refuses ATTACH PARTITION; change the table to match, or attach it by hand`,
    });
    return 'refused';
  };
  if (child.partitionBy !== undefined) return refuse('it is partitioned itself');
  if (p.partitionBy !== undefined)
    return refuse(`it is not partitioned, and the manifest partitions it by ${p.partitionBy}`);
  if (child.distribution.kind !== 'local') return refuse(`it is a ${child.distribution.kind} table`);
  const want = t.columns ?? actual.tables[t.id]?.columns ?? [];
  const have = new Map((child.columns ?? []).map((c) => [c.name, c]));
  for (const c of want) {
    const h = have.get(c.name);
    if (!h) return refuse(`it has no column ${c.name}`);
    if (h.type.sql !== c.type.sql) return refuse(`its column ${c.name} is ${h.type.sql}, not ${c.type.sql}`);
    if (c.notNull && !h.notNull) return refuse(`its column ${c.name} is not NOT NULL`);
  }
  const extra = [...have.keys()].filter((n) => !want.some((c) => c.name === n));
  if (extra.length > 0) return refuse(`it has columns the parent lacks (${extra.join(', ')})`);
  for (const o of Object.values(desired.objects)) {
    if (o.kind !== 'check constraint' || o.parent !== relationRef(t.id)) continue;
    const own = `check constraint ${childId}${o.name.slice(t.id.length)}`;
    if (!actual.objects[own]) return refuse(`it lacks the parent's CHECK constraint ${o.name.slice(t.id.length + 1)}`);
  }
  return { kind: 'attach_partition', table: t.qname, partition: p };
}
