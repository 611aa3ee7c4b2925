// A partitioned table's key and its partitions in the manifest, at every level: a partition may
// be partitioned itself (`partition_by` and `partitions` under it), its partitions bound by its
// own key. Each key is read with PostgreSQL's grammar and held to PostgreSQL's rules on the
// table's keys; the partitions come out as one list, each after the partition it is one of.
import { parseQualifiedKey, quoteQualified, type QualifiedName } from '../sql/quote.js';
import { dictOf } from '../util/dict.js';
import { columnarOptionsOf } from './columnar-options.js';
import { foreignPartition, foreignPartitionProblems } from './resolve-foreign-partitions.js';
import { keyColumnsOf, keyColumnsPath } from './schema-table.js';
import { partitionQname, type Column, type Partition, type Table } from '../model/types.js';
import { boundText, normalizeBoundValue, partitionKeyText, type BoundSpec } from '../sql/partition-bound.js';
import { readPartitionKey, type PartitionKeySpec } from '../sql/partition-key.js';
import { ParseFailure } from '../sql/pg-parse.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import type { ManifestPartition, ManifestTable } from './schema.js';

const list = (v: string | number | readonly (string | number)[]): string[] =>
  (Array.isArray(v) ? v : [v]).map((x) => String(x));

/** A PARTITION BY key read, with its text as the model holds it and the type of each key. */
export interface ResolvedKey {
  readonly key: PartitionKeySpec;
  /** Plain columns in PostgreSQL's spelling (`RANGE (ts)`); any other key as written. */
  readonly text: string;
  readonly types: readonly (string | undefined)[];
}

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

/**
 * Reads a PARTITION BY of the table or of one of its partitions, checking it against the table's
 * columns and keys (`path`: the partition_by key); undefined, with a problem, when it is not one.
 */
export function resolvePartitionKey(
  text: string,
  t: Pick<ManifestTable, 'primary_key' | 'unique'>,
  columns: readonly Column[] | undefined,
  tablePath: Path,
  path: Path,
  problems: ProblemList,
): ResolvedKey | undefined {
  let key: PartitionKeySpec;
  try {
    key = readPartitionKey(text, new Map((columns ?? []).map((c) => [c.name, c.type.base])));
  } catch (e) {
    if (!(e instanceof ParseFailure)) throw e;
    problems.error(
      path,
      'invalid_partition_by',
      `expected \`range (key, …)\`, \`list (key)\` or \`hash (key, …)\`, each key a column or an expression in parentheses, not ${JSON.stringify(text)}: ${e.message}`,
    );
    return undefined;
  }
  const out = key.elements.every((e) => e.column !== undefined && !e.collationOrOpclass)
    ? partitionKeyText({ method: key.method, columns: key.elements.map((e) => e.column!) })
    : text.trim();
  const known = columns ? new Set(columns.map((c) => c.name)) : undefined;
  for (const c of new Set(key.elements.flatMap((e) => e.reads)))
    if (known && !known.has(c))
      problems.error(path, 'unknown_column', `partition key column ${JSON.stringify(c)} is not a column of this table`);
  // PostgreSQL refuses a key that calls what is not IMMUTABLE, but only when it creates the table.
  for (const e of key.elements) {
    const mutable = e.mutable;
    if (mutable !== undefined)
      problems.error(
        path,
        'partition_key_not_immutable',
        `${mutable} is not IMMUTABLE (its result depends on a setting, such as TimeZone, or on when it runs), and PostgreSQL refuses it in a partition key ("functions in partition key expression must be marked IMMUTABLE"); on a timestamptz column, key on \`(col AT TIME ZONE 'UTC')\` or \`date_trunc('day', col AT TIME ZONE 'UTC')\``,
      );
  }
  // PostgreSQL: "unique constraint on partitioned table must include all partitioning columns",
  // and no such constraint at all when the key holds an expression (at every level: the table's
  // keys are made on each partitioned partition too).
  const keys: [readonly string[], Path][] = [
    ...(t.primary_key
      ? [
          [keyColumnsOf(t.primary_key), keyColumnsPath(t.primary_key, [...tablePath, 'primary_key'])] as [
            readonly string[],
            Path,
          ],
        ]
      : []),
    ...(t.unique ?? []).map((u, i): [readonly string[], Path] => [
      keyColumnsOf(u),
      keyColumnsPath(u, [...tablePath, 'unique', i]),
    ]),
  ];
  const expression = key.elements.some((e) => e.expression);
  for (const [cols, p] of keys) {
    if (expression) {
      problems.error(
        p,
        'key_with_partition_expression',
        `a partitioned table whose key holds an expression (${out}) cannot have a primary key or unique constraint: PostgreSQL refuses it ("unsupported … constraint with partition key definition"); declare it on each partition in a \`sql:\` file`,
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
  const typeOf = (c: string): string | undefined => columns?.find((x) => x.name === c)?.type.base;
  return { key, text: out, types: key.elements.map((e) => (e.column !== undefined ? typeOf(e.column) : e.castTo)) };
}

/**
 * The partitions declared under `entries` (`path`: that \`partitions\` key), bound by `keyed`, and
 * those of each one partitioned itself after it, as one list; `of` is the partition they are
 * partitions of (none: the table).
 */
export function resolvePartitions(
  entries: Readonly<Record<string, ManifestPartition>>,
  keyed: ResolvedKey,
  t: Pick<ManifestTable, 'primary_key' | 'unique'>,
  columns: readonly Column[] | undefined,
  path: Path,
  problems: ProblemList,
  opts: {
    readonly schema: string;
    readonly tablePath: Path;
    readonly timePartitions: boolean;
    readonly of?: QualifiedName;
  },
): Partition[] {
  const parts: Partition[] = [];
  for (const [entry, p] of Object.entries(entries)) {
    const at: Path = [...path, entry];
    const bound = partitionBound(p, keyed.key.method, keyed.types, at, problems);
    if (!bound) continue;
    const q = parseQualifiedKey(entry, opts.schema);
    if ('error' in q) {
      problems.error(at, 'invalid_name', `partition ${JSON.stringify(entry)} ${q.error}`);
      continue;
    }
    const params = Object.entries(p.storage_parameters ?? {}).map(([k, v]) => [k, String(v)] as const);
    if (params.length > 0 && p.access_method === 'columnar')
      problems.error(
        [...at, 'storage_parameters'],
        'storage_parameters_columnar',
        'a columnar partition takes no storage parameters (its columnar_options are its options)',
      );
    if (p.columnar_options && p.access_method !== 'columnar')
      problems.error(
        [...at, 'columnar_options'],
        'columnar_options_not_columnar',
        'columnar_options need access_method: columnar (Citus: "columnar storage parameters specified on non-columnar table")',
      );
    if (p.foreign) foreignPartitionProblems(p, t, at, problems);
    const sub = subPartitioning(p, t, columns, at, problems, opts);
    if (sub && (params.length > 0 || p.access_method !== undefined))
      problems.error(
        at,
        'partitioned_partition_options',
        'a partition that is partitioned itself holds no rows: PostgreSQL takes no storage parameters or access method for it ("cannot specify storage parameters for a partitioned table")',
      );
    const qname = { schema: q.schema, name: q.name };
    parts.push({
      name: q.name,
      ...(q.schema !== opts.schema ? { schema: q.schema } : {}),
      ...(opts.of ? { of: opts.of } : {}),
      bound: boundText(bound),
      ...(sub ? { partitionBy: sub.text } : {}),
      ...(p.access_method !== undefined && p.access_method !== 'heap' && !sub ? { accessMethod: p.access_method } : {}),
      ...(p.foreign ? { foreign: foreignPartition(p.foreign) } : {}),
      ...(p.access_method === 'columnar' && !sub && p.columnar_options
        ? { columnarOptions: columnarOptionsOf(p.columnar_options) }
        : {}),
      ...(params.length > 0 && p.access_method !== 'columnar' && !sub
        ? { storageParameters: Object.fromEntries(params) }
        : {}),
      ...(p.index_names && Object.keys(p.index_names).length > 0 ? { indexNames: dictOf(p.index_names) } : {}),
    });
    if (sub && p.partitions)
      parts.push(
        ...resolvePartitions(p.partitions, sub, t, columns, [...at, 'partitions'], problems, { ...opts, of: qname }),
      );
  }
  return parts;
}

/** A partition's own PARTITION BY, when it has one (and partitions only with one). */
function subPartitioning(
  p: ManifestPartition,
  t: Pick<ManifestTable, 'primary_key' | 'unique'>,
  columns: readonly Column[] | undefined,
  at: Path,
  problems: ProblemList,
  opts: { readonly tablePath: Path; readonly timePartitions: boolean },
): ResolvedKey | undefined {
  if (p.partition_by === undefined) {
    if (p.partitions !== undefined)
      problems.error(
        [...at, 'partitions'],
        'needs_partition_by',
        'partitions need partition_by (e.g. `list (region)`)',
      );
    return undefined;
  }
  if (opts.timePartitions) {
    problems.error(
      [...at, 'partition_by'],
      'time_partitions_partitioned',
      "a table with time_partitions has partitions Citus's create_time_partitions makes, none of them partitioned",
    );
    return undefined;
  }
  return resolvePartitionKey(p.partition_by, t, columns, opts.tablePath, [...at, 'partition_by'], problems);
}

/**
 * Citus refuses multi-level partitioning on its tables ("distributing multi-level partitioned
 * tables is not supported", and for reference and citus-local tables alike): a Citus table with a
 * partitioned partition is a manifest error (docs/citus-facts.md).
 */
export function checkMultiLevelOnCitus(t: Table, path: Path, problems: ProblemList): void {
  if (t.distribution.kind === 'local') return;
  const partitioned = (t.partitions ?? []).filter((p) => p.partitionBy !== undefined);
  if (partitioned.length === 0) return;
  const kind = t.distribution.kind === 'hash' ? 'distributed' : t.distribution.kind.replace('_', '-');
  problems.error(
    [...path, 'partitions'],
    'citus_multi_level_partitioning',
    `${partitioned.map((p) => quoteQualified(partitionQname(t, p))).join(', ')} ${partitioned.length === 1 ? 'is partitioned itself' : 'are partitioned themselves'}, and the table is declared ${kind}: Citus refuses multi-level partitioning ("distributing multi-level partitioned tables is not supported"); declare the table local, or its partitions unpartitioned`,
  );
}
