// A foreign partition in the manifest (a partition's `foreign: { server, options }`): the model's
// form, and what PostgreSQL and Citus refuse of one, reported at its key.
import type { ForeignPartition } from '../model/types.js';
import { dictOf } from '../util/dict.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import type { ManifestPartition, ManifestTable } from './schema.js';

/** A foreign partition's server and options, as the model holds them (values as PostgreSQL keeps them: text). */
export function foreignPartition(f: NonNullable<ManifestPartition['foreign']>): ForeignPartition {
  const options = Object.entries(f.options ?? {}).map(([k, v]) => [k, String(v)] as const);
  return { server: f.server, ...(options.length > 0 ? { options: dictOf(options) } : {}) };
}

/** What PostgreSQL and Citus refuse of a foreign partition (pinned by foreign-partitions.citus.test.ts). */
export function foreignPartitionProblems(
  p: ManifestPartition,
  t: ManifestTable,
  at: Path,
  problems: ProblemList,
): void {
  const own = (
    ['access_method', 'columnar_options', 'storage_parameters', 'partition_by', 'index_names'] as const
  ).filter((k) => p[k] !== undefined);
  if (own.length > 0)
    problems.error(
      [...at, 'foreign'],
      'foreign_partition_options',
      `a foreign partition holds no rows here: it takes no ${own.join(', ')}`,
    );
  if (t.distributed_by !== undefined || t.reference || t.single_shard)
    problems.error(
      [...at, 'foreign'],
      'citus_foreign_partition',
      'Citus distributes no table with a foreign partition ("foreign tables cannot be distributed"): keep the table local or citus_local',
    );
  if (t.primary_key !== undefined || (t.unique ?? []).length > 0)
    problems.error(
      [...at, 'foreign'],
      'foreign_partition_unique',
      'PostgreSQL makes no primary key or unique constraint on a table with a foreign partition ("cannot create unique index on partitioned table")',
    );
}
