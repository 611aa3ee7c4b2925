// A table's physical layout in the manifest: access method (columnar), partitioning (declared
// partitions and time partitions) and Citus-local tables, checked against the limits Citus and
// PostgreSQL put on them (docs/citus-facts.md) before anything runs.
import type { ColumnarOptions, Column, Partition, Table, TimePartitions } from '../model/types.js';
import { isTimeType } from '../sql/partition-bound.js';
import { resolvePartitionKey, resolvePartitions } from './resolve-partitions.js';
import { columnarOptionsOf } from './columnar-options.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import type { ManifestTable } from './schema.js';

export { COLUMNAR_OPTION_KEY } from './columnar-options.js';

export type Layout = Pick<Table, 'accessMethod' | 'columnarOptions' | 'partitionBy' | 'partitions' | 'timePartitions'>;

/** The layout of one declared table; problems are reported at their keys under `path`. */
export function resolveLayout(
  t: ManifestTable,
  columns: readonly Column[] | undefined,
  path: Path,
  problems: ProblemList,
  /** The table's schema: a partition is in it unless its key names another (`other.name`). */
  schema = 'public',
): Layout {
  const typeOf = (c: string): string | undefined => columns?.find((x) => x.name === c)?.type.base;
  const out: {
    accessMethod?: string;
    columnarOptions?: ColumnarOptions;
    partitionBy?: string;
    partitions?: Partition[];
    timePartitions?: TimePartitions;
  } = {};
  const o = t.columnar_options;
  if (o && t.access_method !== 'columnar')
    problems.error(
      [...path, 'columnar_options'],
      'columnar_options_not_columnar',
      'columnar_options need access_method: columnar (Citus: "columnar storage parameters specified on non-columnar table")',
    );
  if (t.access_method === 'columnar') {
    out.accessMethod = 'columnar';
    if (o) out.columnarOptions = columnarOptionsOf(o);
    if (t.unlogged)
      problems.error(
        [...path, 'unlogged'],
        'columnar_unlogged',
        'a columnar table cannot be UNLOGGED (columnar writes the WAL)',
      );
    (t.indexes ?? []).forEach((ix, i) => {
      if (ix.using && !['btree', 'hash'].includes(ix.using))
        problems.error(
          [...path, 'indexes', i, 'using'],
          'columnar_index',
          `a columnar table supports btree and hash indexes only, not ${ix.using}`,
        );
    });
  }
  // An access method of CREATE ACCESS METHOD (the sql: files declare it).
  if (t.access_method !== undefined && t.access_method !== 'heap' && t.access_method !== 'columnar')
    out.accessMethod = t.access_method;
  if (out.accessMethod !== undefined && out.accessMethod !== 'columnar' && t.partition_by !== undefined)
    problems.error(
      [...path, 'access_method'],
      'partitioned_access_method',
      'a partitioned table holds no rows: PostgreSQL 15 takes no access method for it ("specifying a table access method is not supported on a partitioned table"); give it to its partitions',
    );
  if (t.partition_by === undefined) {
    for (const key of ['partitions', 'time_partitions'] as const)
      if (t[key] !== undefined)
        problems.error([...path, key], 'needs_partition_by', `${key} needs partition_by (e.g. \`range (created_at)\`)`);
    return out;
  }
  const keyed = resolvePartitionKey(t.partition_by, t, columns, path, [...path, 'partition_by'], problems);
  if (!keyed) return out;
  const { key } = keyed;
  out.partitionBy = keyed.text;
  if (t.partitions !== undefined)
    out.partitions = resolvePartitions(t.partitions, keyed, t, columns, [...path, 'partitions'], problems, {
      schema,
      tablePath: path,
      timePartitions: t.time_partitions !== undefined,
    });
  const parts = out.partitions ?? [];
  const tp = t.time_partitions;
  if (tp) {
    const column = key.elements[0]?.column ?? '';
    if (key.method !== 'RANGE' || key.elements.length !== 1 || key.elements[0]!.column === undefined)
      problems.error(
        [...path, 'time_partitions'],
        'time_partitions_key',
        `time partitions need PARTITION BY RANGE on one column, not ${out.partitionBy}`,
      );
    else if (columns && !isTimeType(typeOf(column)))
      problems.error(
        [...path, 'time_partitions'],
        'time_partitions_key',
        `time partitions need a date or timestamp partition column; ${column} is ${typeOf(column) ?? 'unknown'}`,
      );
    if (parts.some((p) => p.of === undefined && p.bound === 'DEFAULT'))
      problems.error(
        [...path, 'time_partitions'],
        'time_partitions_default',
        'create_time_partitions refuses a table with a DEFAULT partition',
      );
    out.timePartitions = {
      interval: tp.interval,
      premake: tp.premake,
      ...(tp.retention !== undefined ? { retention: tp.retention } : {}),
      ...(tp.columnar_after !== undefined ? { columnarAfter: tp.columnar_after } : {}),
    };
  }
  return out;
}
