// The table a routine declared with colocate_with and no distribution argument goes with.
import type { Table } from '../model/types.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import type { TableContext } from './resolve-context.js';

/**
 * The table a routine without a distribution argument is colocated with: Citus records the
 * colocation of a reference or single-shard table (create_distributed_function with colocate_with
 * alone); a hash-distributed one needs a distribution argument, any other table is refused.
 */
export function colocatedTable(name: string, ctx: TableContext, path: Path, problems: ProblemList): Table | undefined {
  const tid = ctx.lookup(name);
  const t = tid ? ctx.tables[tid] : undefined;
  if (!t) {
    problems.error(path, 'unknown_table', `colocate_with ${JSON.stringify(name)} is not a table the manifest declares`);
    return undefined;
  }
  if (t.distribution.kind === 'hash') {
    problems.error(
      path,
      'needs_distributed_by',
      `colocate_with ${JSON.stringify(name)} is a hash-distributed table: a routine colocated with one needs distributed_by (Citus: "the distribution argument is not valid")`,
    );
    return undefined;
  }
  if (!['reference', 'single_shard', 'schema'].includes(t.distribution.kind)) {
    problems.error(
      path,
      'colocate_with_not_distributed',
      `colocate_with ${JSON.stringify(name)} is a ${t.distribution.kind.replace('_', '-')} table; without distributed_by Citus colocates a routine only with a reference or single-shard table`,
    );
    return undefined;
  }
  return t;
}
