// Warnings about routines the manifest delegates: a table of the routine's group whose int or
// smallint column draws from a sequence cannot get its default on a worker.
import type { Table } from '../model/types.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import type { TableContext } from './resolve-context.js';

const intSequenceColumns = new WeakMap<TableContext, Map<string, { table: string; column: string; type: string }[]>>();

/** Columns of each group's tables that take an int/smallint sequence default (computed once). */
function intSequencesByGroup(ctx: TableContext): Map<string, { table: string; column: string; type: string }[]> {
  let byGroup = intSequenceColumns.get(ctx);
  if (byGroup) return byGroup;
  byGroup = new Map();
  for (const t of Object.values(ctx.tables)) {
    if (t.distribution.kind !== 'hash') continue;
    for (const c of t.columns ?? []) {
      const usesSequence = c.type.serial || (c.default !== undefined && /\bnextval\s*\(/i.test(c.default));
      if (usesSequence && (c.type.base === 'integer' || c.type.base === 'smallint')) {
        const list = byGroup.get(t.distribution.group) ?? [];
        list.push({ table: ctx.keyOf.get(t.id)!, column: c.name, type: c.type.base });
        byGroup.set(t.distribution.group, list);
      }
    }
  }
  intSequenceColumns.set(ctx, byGroup);
  return byGroup;
}

/** Warns when a routine delegated to the workers would write an int/serial sequence default there. */
export function warnIntSequences(
  ctx: TableContext,
  target: Table,
  label: string,
  path: Path,
  problems: ProblemList,
): void {
  if (target.distribution.kind !== 'hash') return;
  for (const c of intSequencesByGroup(ctx).get(target.distribution.group) ?? []) {
    problems.warn(
      [...path, 'distributed_by'],
      'int_sequence_on_worker',
      `${c.table}.${c.column} takes an ${c.type} sequence default, but ${label} runs on the workers, which cannot use it ("nextval(sequence) calls in worker nodes are not supported for column defaults of type int or smallint"): use bigint`,
    );
  }
}
