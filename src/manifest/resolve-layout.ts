// A table's physical layout in the manifest: access method (columnar), partitioning (declared
// partitions and time partitions) and Citus-local tables, checked against the limits Citus and
// PostgreSQL put on them (docs/citus-facts.md) before anything runs.
import { parseQualifiedKey } from '../sql/quote.js';
import { dictOf } from '../util/dict.js';
import { keyColumnsOf, keyColumnsPath } from './schema-table.js';
import type { ColumnarOptions, Column, Partition, Table, TimePartitions } from '../model/types.js';
import {
  boundText,
  isTimeType,
  normalizeBoundValue,
  partitionKeyText,
  type BoundSpec,
} from '../sql/partition-bound.js';
import { readPartitionKey, type PartitionKeySpec } from '../sql/partition-key.js';
import { ParseFailure } from '../sql/pg-parse.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import type { ManifestPartition, ManifestTable } from './schema.js';

/** The manifest key of each columnar option (`columnar_options:`), both ways: resolve and introspect. */
export const COLUMNAR_OPTION_KEY = {
  compression: 'compression',
  compressionLevel: 'compression_level',
  stripeRowLimit: 'stripe_row_limit',
  chunkGroupRowLimit: 'chunk_group_row_limit',
} as const satisfies { readonly [K in keyof Required<ColumnarOptions>]: string };

export type Layout = Pick<Table, 'accessMethod' | 'columnarOptions' | 'partitionBy' | 'partitions' | 'timePartitions'>;

const list = (v: string | number | readonly (string | number)[]): string[] =>
  (Array.isArray(v) ? v : [v]).map((x) => String(x));

function partitionBound(
  p: ManifestPartition,
  method: 'RANGE' | 'LIST' | 'HASH',
  keyTypes: readonly (string | undefined)[],
  path: Path,
  problems: ProblemList,
): BoundSpec | undefined {
  const given = [
    p.from !== undefined || p.to !== undefined ? 'from/to' : undefined,
    p.in !== undefined ? 'in' : undefined,
    p.modulus !== undefined || p.remainder !== undefined ? 'modulus/remainder' : undefined,
    p.default ? 'default' : undefined,
  ].filter((x): x is string => x !== undefined);
  if (given.length !== 1) {
    problems.error(
      path,
      'partition_bound',
      given.length === 0
        ? 'a partition needs its bound: `from`/`to` (RANGE), `in` (LIST), `modulus`/`remainder` (HASH) or `default: true`'
        : `a partition has one kind of bound, not ${given.join(' and ')}`,
    );
    return undefined;
  }
  const wrong = (what: string): undefined => {
    problems.error(path, 'partition_bound', `${what} does not fit PARTITION BY ${method}`);
    return undefined;
  };
  const norm = (vals: string[]): string[] => vals.map((v, i) => normalizeBoundValue(v, keyTypes[i]));
  if (p.default) return method === 'HASH' ? wrong('a DEFAULT partition') : { kind: 'default' };
  if (p.in !== undefined) return method !== 'LIST' ? wrong('`in`') : { kind: 'list', in: norm(list(p.in)) };
  if (p.modulus !== undefined || p.remainder !== undefined) {
    if (method !== 'HASH') return wrong('`modulus`/`remainder`');
    if (p.modulus === undefined || p.remainder === undefined || p.remainder >= p.modulus) {
      problems.error(path, 'partition_bound', 'a HASH partition needs both modulus and a remainder below it');
      return undefined;
    }
    return { kind: 'hash', modulus: p.modulus, remainder: p.remainder };
  }
  if (method !== 'RANGE') return wrong('`from`/`to`');
  if (p.from === undefined || p.to === undefined) {
    problems.error(
      path,
      'partition_bound',
      'a RANGE partition needs both `from` and `to` (MINVALUE / MAXVALUE when open)',
    );
    return undefined;
  }
  const from = list(p.from);
  const to = list(p.to);
  if (from.length !== keyTypes.length || to.length !== keyTypes.length) {
    problems.error(
      path,
      'partition_bound',
      `from and to need one value per key column (${keyTypes.length}), not ${from.length} and ${to.length}`,
    );
    return undefined;
  }
  return { kind: 'range', from: norm(from), to: norm(to) };
}

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
  const known = columns ? new Set(columns.map((c) => c.name)) : undefined;
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
    if (o)
      out.columnarOptions = Object.fromEntries(
        (Object.keys(COLUMNAR_OPTION_KEY) as (keyof ColumnarOptions)[]).flatMap((k) =>
          o[COLUMNAR_OPTION_KEY[k]] !== undefined ? [[k, o[COLUMNAR_OPTION_KEY[k]]]] : [],
        ),
      ) as ColumnarOptions;
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
  if (t.partition_by === undefined) {
    for (const key of ['partitions', 'time_partitions'] as const)
      if (t[key] !== undefined)
        problems.error([...path, key], 'needs_partition_by', `${key} needs partition_by (e.g. \`range (created_at)\`)`);
    return out;
  }
  let key: PartitionKeySpec;
  try {
    key = readPartitionKey(t.partition_by);
  } catch (e) {
    if (!(e instanceof ParseFailure)) throw e;
    problems.error(
      [...path, 'partition_by'],
      'invalid_partition_by',
      `expected \`range (key, …)\`, \`list (key)\` or \`hash (key, …)\`, each key a column or an expression in parentheses, not ${JSON.stringify(t.partition_by)}: ${e.message}`,
    );
    return out;
  }
  // Plain columns in PostgreSQL's spelling; any other key as written (compared by its parse tree).
  out.partitionBy = key.elements.every((e) => e.column !== undefined && !e.collationOrOpclass)
    ? partitionKeyText({ method: key.method, columns: key.elements.map((e) => e.column!) })
    : t.partition_by.trim();
  const read = [...new Set(key.elements.flatMap((e) => e.reads))];
  read.forEach((c) => {
    if (known && !known.has(c))
      problems.error(
        [...path, 'partition_by'],
        'unknown_column',
        `partition key column ${JSON.stringify(c)} is not a column of this table`,
      );
  });
  // PostgreSQL: "unique constraint on partitioned table must include all partitioning columns",
  // and no such constraint at all when the key holds an expression.
  const keys: [readonly string[], Path][] = [
    ...(t.primary_key
      ? [
          [keyColumnsOf(t.primary_key), keyColumnsPath(t.primary_key, [...path, 'primary_key'])] as [
            readonly string[],
            Path,
          ],
        ]
      : []),
    ...(t.unique ?? []).map((u, i): [readonly string[], Path] => [
      keyColumnsOf(u),
      keyColumnsPath(u, [...path, 'unique', i]),
    ]),
  ];
  const expression = key.elements.some((e) => e.expression);
  for (const [cols, p] of keys) {
    if (expression) {
      problems.error(
        p,
        'key_with_partition_expression',
        `a partitioned table whose key holds an expression (${out.partitionBy}) cannot have a primary key or unique constraint: PostgreSQL refuses it ("unsupported … constraint with partition key definition"); declare it on each partition in a \`sql:\` file`,
      );
      continue;
    }
    const missing = key.elements.flatMap((e) => (e.column !== undefined && !cols.includes(e.column) ? [e.column] : []));
    if (missing.length > 0)
      problems.error(
        p,
        'key_without_partition_column',
        `a key of a partitioned table must include its partition columns (${missing.join(', ')}): PostgreSQL enforces uniqueness per partition`,
      );
  }
  const keyTypes = key.elements.map((e) => (e.column !== undefined ? typeOf(e.column) : e.castTo));
  const parts: Partition[] = [];
  for (const [entry, p] of Object.entries(t.partitions ?? {})) {
    const bound = partitionBound(p, key.method, keyTypes, [...path, 'partitions', entry], problems);
    if (!bound) continue;
    const q = parseQualifiedKey(entry, schema);
    if ('error' in q) {
      problems.error([...path, 'partitions', entry], 'invalid_name', `partition ${JSON.stringify(entry)} ${q.error}`);
      continue;
    }
    const name = q.name;
    const params = Object.entries(p.storage_parameters ?? {}).map(([k, v]) => [k, String(v)] as const);
    if (params.length > 0 && p.access_method === 'columnar')
      problems.error(
        [...path, 'partitions', entry, 'storage_parameters'],
        'storage_parameters_columnar',
        "a columnar partition takes no storage parameters (its table's columnar_options are its options)",
      );
    parts.push({
      name,
      ...(q.schema !== schema ? { schema: q.schema } : {}),
      bound: boundText(bound),
      ...(p.access_method === 'columnar' ? { accessMethod: 'columnar' } : {}),
      ...(params.length > 0 && p.access_method !== 'columnar' ? { storageParameters: Object.fromEntries(params) } : {}),
      ...(p.index_names && Object.keys(p.index_names).length > 0 ? { indexNames: dictOf(p.index_names) } : {}),
    });
  }
  if (t.partitions !== undefined) out.partitions = parts;
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
    if (parts.some((p) => p.bound === 'DEFAULT'))
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
