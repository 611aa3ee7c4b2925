// Step records of tables and their indexes.
import { quoteIdent, quoteLiteral, sqlInt } from '../../sql/quote.js';
import { PLAIN, type StepSpecs } from './spec-record.js';
import { ALTER_TABLE, cols, columnSql, indexSql, keySql, oneShardAtATime, q } from './sql-parts.js';
import { tableRef } from '../../model/object-ref.js';

type TableKind =
  | 'create_table'
  | 'alter_table_persistence'
  | 'alter_table_inherit'
  | 'alter_table_of'
  | 'alter_inherited_column'
  | 'alter_table_storage_parameters'
  | 'drop_table'
  | 'create_index'
  | 'drop_index';

/** A storage parameter's name as SQL: `fillfactor`, `toast.autovacuum_enabled` (each part quoted if it must be). */
const parameterName = (k: string): string =>
  k
    .split('.')
    .map((p) => (/^[a-z_][a-z0-9_]*$/.test(p) ? p : quoteIdent(p)))
    .join('.');
/** Its value: a number or boolean as written, anything else a string literal. */
const parameterValue = (v: string): string => (/^(-?[0-9.]+|true|false)$/i.test(v) ? v : quoteLiteral(v));

export const TABLE_SPECS: StepSpecs<TableKind> = {
  create_table: {
    ...PLAIN,
    phase: () => 'tables',
    hazards: () => [],
    object: (s) => tableRef(s.table),
    sql: (s) => {
      const body = [
        ...s.columns.map((c) => columnSql(c, s.table.schema)),
        ...(s.primaryKey ? [keySql('PRIMARY KEY', s.primaryKey)] : []),
        ...s.unique.map((u) => keySql('UNIQUE', u)),
      ];
      const tail = [
        s.inherits !== undefined ? ` INHERITS (${s.inherits.map(q).join(', ')})` : '',
        s.partitionBy !== undefined ? ` PARTITION BY ${s.partitionBy}` : '',
        s.accessMethod !== undefined ? ` USING ${quoteIdent(s.accessMethod)}` : '',
      ].join('');
      return [
        `CREATE ${s.unlogged ? 'UNLOGGED ' : ''}TABLE ${q(s.table)} (\n${body.map((l) => `    ${l}`).join(',\n')}\n)${tail}`,
        // Made with its columns, then typed: pg_dump prints it as CREATE TABLE … OF all the same.
        ...(s.ofType !== undefined ? [`${ALTER_TABLE(s.table)} OF ${s.ofType}`] : []),
      ];
    },
    summary: (s) =>
      `create ${s.unlogged ? 'unlogged ' : ''}${s.accessMethod ? `${s.accessMethod} ` : ''}${s.partitionBy ? 'partitioned ' : ''}table ${q(s.table)} (${s.columns.length} column${s.columns.length === 1 ? '' : 's'}${s.inherits ? `, and those of ${s.inherits.map(q).join(', ')}` : ''}${s.ofType !== undefined ? `, of type ${s.ofType}` : ''})`,
  },
  alter_table_storage_parameters: {
    ...PLAIN,
    phase: (s) => (s.afterDistribution ? 'cleanup' : 'tables'),
    hazards: () => [],
    object: (s) => tableRef(s.table),
    sql: (s) => [
      ...(s.reset.length > 0 ? [`${ALTER_TABLE(s.table)} RESET (${s.reset.map(parameterName).join(', ')})`] : []),
      ...(s.set.length > 0
        ? [
            `${ALTER_TABLE(s.table)} SET (${s.set.map(([k, v]) => `${parameterName(k)} = ${parameterValue(v)}`).join(', ')})`,
          ]
        : []),
    ],
    summary: (s) =>
      `set storage parameters of ${q(s.table)}: ${[...s.set.map(([k, v]) => `${k} = ${v}`), ...s.reset.map((k) => `${k} reset`)].join(', ')}`,
  },
  alter_table_persistence: {
    ...PLAIN,
    phase: () => 'tables',
    hazards: () => ['rewrites_table'],
    object: (s) => tableRef(s.table),
    sql: (s) => [`${ALTER_TABLE(s.table)} SET ${s.unlogged ? 'UNLOGGED' : 'LOGGED'}`],
    summary: (s) => `make ${q(s.table)} ${s.unlogged ? 'unlogged' : 'logged'}`,
  },
  alter_table_of: {
    ...PLAIN,
    phase: () => 'tables',
    hazards: () => [],
    object: (s) => tableRef(s.table),
    sql: (s) => [`${ALTER_TABLE(s.table)} ${s.ofType !== undefined ? `OF ${s.ofType}` : 'NOT OF'}`],
    summary: (s) =>
      s.ofType !== undefined
        ? `make ${q(s.table)} a typed table of ${s.ofType}`
        : `make ${q(s.table)} no longer a typed table (its columns stay)`,
  },
  alter_table_inherit: {
    ...PLAIN,
    phase: () => 'tables',
    hazards: () => [],
    object: (s) => tableRef(s.table),
    sql: (s) => [`${ALTER_TABLE(s.table)} ${s.inherit ? '' : 'NO '}INHERIT ${q(s.parent)}`],
    summary: (s) =>
      s.inherit
        ? `make ${q(s.table)} inherit from ${q(s.parent)} (its columns of the same names become the parent's too)`
        : `make ${q(s.table)} no longer inherit from ${q(s.parent)} (the columns it had from it become its own)`,
  },
  alter_inherited_column: {
    ...PLAIN,
    // After the tables phase: a parent's own ALTER … SET DEFAULT reaches its children.
    phase: () => 'cleanup',
    hazards: () => [],
    object: (s) => tableRef(s.table),
    sql: (s) => {
      const c = `ALTER COLUMN ${quoteIdent(s.column)}`;
      return [
        ...(s.default === undefined
          ? []
          : [
              `ALTER TABLE ONLY ${q(s.table)} ${c} ${s.default.value !== undefined ? `SET DEFAULT ${s.default.value}` : 'DROP DEFAULT'}`,
            ]),
        // SET NOT NULL reaches the table's own children (PostgreSQL refuses it ONLY where it has some).
        ...(s.notNull === undefined
          ? []
          : [
              s.notNull
                ? `${ALTER_TABLE(s.table)} ${c} SET NOT NULL`
                : `ALTER TABLE ONLY ${q(s.table)} ${c} DROP NOT NULL`,
            ]),
        ...(s.statistics === undefined
          ? []
          : [
              `ALTER TABLE ONLY ${q(s.table)} ${c} SET STATISTICS ${s.statistics === null ? -1 : sqlInt(s.statistics)}`,
            ]),
        ...(s.storage === undefined
          ? []
          : [`ALTER TABLE ONLY ${q(s.table)} ${c} SET STORAGE ${s.storage.toUpperCase()}`]),
        ...(s.setOptions?.length
          ? [
              `ALTER TABLE ONLY ${q(s.table)} ${c} SET (${s.setOptions.map(([k, v]) => `${quoteIdent(k)} = ${v}`).join(', ')})`,
            ]
          : []),
        ...(s.resetOptions?.length
          ? [`ALTER TABLE ONLY ${q(s.table)} ${c} RESET (${s.resetOptions.map(quoteIdent).join(', ')})`]
          : []),
      ];
    },
    summary: (s) =>
      `inherited column ${q(s.table)}.${quoteIdent(s.column)}: ${[
        ...(s.default === undefined
          ? []
          : [s.default.value !== undefined ? `its own default ${s.default.value}` : 'no default of its own']),
        ...(s.notNull === undefined ? [] : [s.notNull ? 'NOT NULL of its own' : 'drop its own NOT NULL']),
        ...(s.statistics === undefined ? [] : [`SET STATISTICS ${s.statistics ?? -1}`]),
        ...(s.storage === undefined ? [] : [`storage ${s.storage}`]),
        ...(s.setOptions ?? []).map(([k, v]) => `${k} = ${v}`),
        ...(s.resetOptions ?? []).map((k) => `${k} reset`),
      ].join(', ')}`,
  },
  drop_table: {
    ...PLAIN,
    phase: () => 'prune',
    hazards: () => ['drops_data'],
    object: (s) => tableRef(s.table),
    sql: (s) => [`DROP TABLE ${q(s.table)}`],
    summary: (s) => `drop table ${q(s.table)} (prune)`,
  },
  create_index: {
    ...PLAIN,
    phase: () => 'tables',
    hazards: (s) => (s.concurrently ? ['non_transactional'] : []),
    object: (s) => tableRef(s.table),
    sql: (s) =>
      s.concurrently
        ? oneShardAtATime([indexSql(s.table, s.index, true)])
        : [indexSql(s.table, s.index, s.concurrently)],
    summary: (s) =>
      `create ${s.index.unique ? 'unique ' : ''}index ${s.concurrently ? 'concurrently ' : ''}on ${q(s.table)} (${cols(s.index.columns)})`,
  },
  drop_index: {
    ...PLAIN,
    phase: (s) => (s.recreate ? 'tables' : 'prune'),
    hazards: (s) => (s.concurrently ? ['non_transactional'] : []),
    object: (s) => tableRef(s.table),
    sql: (s) => [
      s.concurrently
        ? `DROP INDEX CONCURRENTLY IF EXISTS ${q(s.index)}`
        : `DROP INDEX ${s.invalid ? 'IF EXISTS ' : ''}${q(s.index)}`,
    ],
    summary: (s) =>
      s.invalid && s.recreate
        ? `index ${q(s.index)} of ${q(s.table)} is invalid (a failed build; not used, nor enforced): drop it ${s.concurrently ? 'concurrently ' : ''}to build it again`
        : `drop ${s.invalid ? 'invalid ' : ''}index ${s.concurrently ? 'concurrently ' : ''}${q(s.index)} of ${q(s.table)} ${s.recreate ? '(to create it again)' : '(prune)'}`,
  },
};
