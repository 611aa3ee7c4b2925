// Small rules of a declared table, used while resolving tables.
import { keyColumnsOf, keyColumnsPath } from './schema-table.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import type { Manifest, ManifestTable } from './schema.js';
import type { Distribution } from '../model/types.js';

/** What a table is declared as (more than one is a problem). */
export function kindsOf(t: ManifestTable): string[] {
  const kinds: string[] = [];
  if (t.distributed_by !== undefined) kinds.push('distributed (distributed_by)');
  if (t.reference) kinds.push('reference');
  if (t.local) kinds.push('local');
  if (t.single_shard) kinds.push('single_shard');
  if (t.citus_local) kinds.push('citus_local');
  return kinds;
}

/** Columns a key or index names must be columns of the table (when it declares its columns). */
export function checkColumnsExist(
  cols: readonly string[],
  known: ReadonlySet<string> | undefined,
  path: Path,
  problems: ProblemList,
): void {
  if (!known) return;
  cols.forEach((c, i) => {
    if (!known.has(c))
      problems.error([...path, i], 'unknown_column', `column ${JSON.stringify(c)} is not a column of this table`);
  });
}

/** The distribution of a table not distributed by a column; `distributedSchema`: the distributed schema it is in. */
export function otherDistribution(
  t: ManifestTable,
  distributedSchema: string | undefined,
  path: Path,
  problems: ProblemList,
): Distribution {
  if (t.cascade_via_foreign_keys !== undefined && !t.citus_local)
    problems.error(
      [...path, 'cascade_via_foreign_keys'],
      'needs_citus_local',
      'cascade_via_foreign_keys applies to citus_local tables only',
    );
  if (distributedSchema !== undefined) {
    const kinds = kindsOf(t).filter((k) => k !== 'local');
    if (kinds.length > 0)
      problems.error(
        path,
        'distributed_schema_table',
        `is in distributed schema ${JSON.stringify(distributedSchema)}: Citus makes it a single-shard table of the schema's group; declare no ${kinds.join(' / ')}`,
        true,
      );
    return { kind: 'schema' };
  }
  if (t.reference) return { kind: 'reference' };
  if (t.single_shard) return { kind: 'single_shard' };
  if (t.citus_local) return { kind: 'citus_local', ...(t.cascade_via_foreign_keys ? { cascade: true } : {}) };
  return { kind: 'local' };
}

/** Schema-based sharding: Citus refuses to distribute `public` ("public schema cannot be distributed"). */
export function checkSchemas(m: Manifest, problems: ProblemList): void {
  for (const [name, spec] of Object.entries(m.schemas))
    if (spec.distributed && name === 'public')
      problems.error(
        ['schemas', name, 'distributed'],
        'public_schema_distributed',
        'the public schema cannot be distributed (Citus refuses it); put tenant tables in a schema of their own',
      );
}

/** On a distributed table every unique key must hold the distribution column: Citus enforces uniqueness per shard. */
export function checkKeysHaveColumn(t: ManifestTable, col: string, path: Path, problems: ProblemList): void {
  const keys: [string, readonly string[], Path][] = [];
  if (t.primary_key)
    keys.push(['primary key', keyColumnsOf(t.primary_key), keyColumnsPath(t.primary_key, [...path, 'primary_key'])]);
  (t.unique ?? []).forEach((u, i) =>
    keys.push(['unique constraint', keyColumnsOf(u), keyColumnsPath(u, [...path, 'unique', i])]),
  );
  (t.indexes ?? []).forEach((ix, i) => {
    if (ix.unique) keys.push(['unique index', ix.columns, [...path, 'indexes', i]]);
  });
  for (const [what, cols, p] of keys) {
    if (!cols.includes(col))
      problems.error(
        p,
        'key_without_distribution_column',
        `${what} (${cols.join(', ')}) does not include the distribution column ${JSON.stringify(col)}; Citus enforces uniqueness only per shard`,
      );
  }
}
