// Step records of a table's columns.
import { quoteIdent, sqlInt, sqlNumber } from '../../sql/quote.js';
import { lossyCast } from './lossy-cast.js';
import { typeChangeRewrites } from './type-rewrite.js';
import { alterIdentityOptions, identityOptionsSql } from './render-sequences.js';
import { PLAIN, type StepSpecs } from './spec-record.js';
import { ALTER_TABLE, collationSql, columnSql, q } from './sql-parts.js';
import { tableRef } from '../../model/object-ref.js';
import type { QualifiedName } from '../../sql/quote.js';
import type { ColumnStep } from './columns.js';
import type { Phase } from './steps.js';
import { backfillSql, backfillSyncSql } from '../backfill.js';
import { dropSyncSql, FILL_PAGES, fillSql } from '../fill.js';
import { RETYPE_SPECS } from './retype-spec.js';

/** ALTER TABLE, ONLY for a partitioned table's own column setting. */
const alterOnly = (s: { readonly table: QualifiedName; readonly only?: true }): string =>
  s.only ? `ALTER TABLE ONLY ${q(s.table)}` : ALTER_TABLE(s.table);

/** The column step records: every one runs in the tables phase but drop_column, and changes its table. */
const column = { ...PLAIN, phase: (): Phase => 'tables', object: (s: ColumnStep) => tableRef(s.table) } as const;
const col = (s: { readonly table: Parameters<typeof q>[0]; readonly column: string }): string =>
  `${q(s.table)}.${quoteIdent(s.column)}`;

export const COLUMN_SPECS: StepSpecs<ColumnStep['kind']> = {
  add_column: {
    ...column,
    hazards: (s) => (s.rewrites !== undefined ? ['rewrites_table'] : []),
    sql: (s) => [`${ALTER_TABLE(s.table)} ADD COLUMN ${columnSql(s.column, s.table.schema)}`],
    summary: (s) =>
      `add column ${quoteIdent(s.column.name)} ${s.column.type.sql}${s.column.notNull ? ' NOT NULL' : ''}${s.column.default !== undefined ? ` DEFAULT ${s.column.default}` : ''} to ${q(s.table)}${s.rewrites !== undefined ? ` (rewrites it: ${s.rewrites})` : ''}${s.likelyRenameOf !== undefined ? `; looks like a rename of ${quoteIdent(s.likelyRenameOf)}: declare renamed_from: ${s.likelyRenameOf} to keep its values` : ''}`,
  },
  alter_column_type: {
    ...column,
    hazards: (s) => [
      ...(typeChangeRewrites(s.from, s.type, s.using) ? (['rewrites_table'] as const) : []),
      ...(lossyCast(s.from, s.type) || s.using !== undefined ? (['drops_data'] as const) : []),
    ],
    sql: (s) => [
      ...(s.resetDefault ? [`${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} DROP DEFAULT`] : []),
      `${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} TYPE ${s.type}${s.collation !== undefined ? ` COLLATE ${collationSql(s.collation, s.collationSchema)}` : ''}${s.using !== undefined ? ` USING ${s.using}` : ''}`,
      ...(s.resetDefault?.default !== undefined
        ? [`${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} SET DEFAULT ${s.resetDefault.default}`]
        : []),
    ],
    summary: (s) =>
      `change ${col(s)} from ${s.from} to ${s.type}${s.collation !== undefined ? ` COLLATE ${collationSql(s.collation, s.collationSchema)}` : ''}${s.using !== undefined ? ` (USING ${s.using})` : ''}${lossyCast(s.from, s.type) || s.using !== undefined ? `: values of ${quoteIdent(s.column)} may be rounded, truncated or refused` : ''}${s.notOnline !== undefined ? ` (not online: ${s.notOnline}; the table is rewritten in the transaction)` : ''}`,
  },
  alter_column_identity: {
    ...column,
    hazards: () => [],
    sql: (s) => [
      `${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} ${
        s.identity === undefined
          ? 'DROP IDENTITY'
          : s.from === undefined
            ? `ADD GENERATED ${s.identity.toUpperCase()} AS IDENTITY${identityOptionsSql(s.options, s.sequence === undefined ? undefined : { schema: s.table.schema, name: s.sequence })}`
            : `SET GENERATED ${s.identity.toUpperCase()}`
      }`,
    ],
    summary: (s) =>
      `${s.identity === undefined ? 'drop identity of' : s.from === undefined ? `make identity (${s.identity})` : `make identity ${s.identity}`} ${col(s)}`,
  },
  alter_column_identity_options: {
    ...column,
    hazards: () => [],
    sql: (s) => [
      `${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} ${alterIdentityOptions(s.type, s.to, s.from, s.restart === true).join(' ')}`,
    ],
    summary: (s) =>
      `set identity options of ${col(s)}: ${alterIdentityOptions(s.type, s.to, s.from, s.restart === true)
        .map((o) => o.replace(/^SET /, '').toLowerCase())
        .join(', ')}${s.restart ? ' (never used: it restarts at its start)' : ''}`,
  },
  drop_column_expression: {
    ...column,
    hazards: () => [],
    sql: (s) => [`${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} DROP EXPRESSION`],
    summary: (s) => `make ${col(s)} a plain column (drop its generation expression)`,
  },
  alter_column_not_null: {
    ...column,
    hazards: () => [],
    sql: (s) => [`${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} ${s.notNull ? 'SET' : 'DROP'} NOT NULL`],
    summary: (s) => `${s.notNull ? 'set' : 'drop'} NOT NULL on ${col(s)}`,
  },
  alter_column_default: {
    ...column,
    hazards: () => [],
    sql: (s) => [
      `${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} ${s.default !== undefined ? `SET DEFAULT ${s.default}` : 'DROP DEFAULT'}`,
    ],
    summary: (s) =>
      s.default !== undefined ? `set default of ${col(s)} to ${s.default}` : `drop default of ${col(s)}`,
  },
  start_backfill: {
    ...column,
    hazards: () => [],
    sql: (s) => [
      `${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} SET DEFAULT ${s.default}`,
      ...backfillSyncSql(s.table, s.column, s.default),
      `${ALTER_TABLE(s.table)} ADD CONSTRAINT ${quoteIdent(s.marker)} CHECK (${quoteIdent(s.column)} IS NOT NULL) NOT VALID`,
    ],
    summary: (s) =>
      `set default of ${col(s)} to ${s.default} for the rows written from now on (and, by a trigger, for a row not filled yet that an UPDATE leaves NULL there), and mark the rows to fill (${quoteIdent(s.marker)}: until they are filled, a row written with an explicit NULL there is refused)`,
  },
  backfill_column: {
    ...column,
    hazards: () => ['non_transactional'],
    sql: (s) => [
      s.shadow === undefined
        ? backfillSql(s.table, s.column, s.perShard)
        : fillSql(
            s.table,
            `${quoteIdent(s.column)} = ${quoteIdent(s.column)}`,
            `${quoteIdent(s.shadow)} IS NULL`,
            s.perShard,
          ),
    ],
    summary: (s) =>
      `fill ${s.shadow === undefined ? `${col(s)} with its default` : `${quoteIdent(s.shadow)} of ${q(s.table)} from ${quoteIdent(s.column)} (by the trigger)`} in batches of ${FILL_PAGES} pages${s.perShard ? ' per shard' : ''}, each committed (writes go on; resumed if interrupted)`,
  },
  finish_backfill: {
    ...column,
    hazards: () => [],
    sql: (s) => [
      ...(s.notNull ? [`${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} SET NOT NULL`] : []),
      `${ALTER_TABLE(s.table)} DROP CONSTRAINT ${quoteIdent(s.marker)}`,
      ...dropSyncSql(s.table, s.column),
    ],
    summary: (s) =>
      `${s.notNull ? `set NOT NULL on ${col(s)} (proved by the validated ${quoteIdent(s.marker)}: no scan) and ` : ''}drop ${quoteIdent(s.marker)} of ${q(s.table)} and its trigger`,
  },
  alter_column_storage: {
    ...column,
    hazards: () => [], // for values written from now on: nothing is rewritten
    sql: (s) => [`${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} SET STORAGE ${s.storage.toUpperCase()}`],
    summary: (s) => `set storage of ${col(s)} to ${s.storage}`,
  },
  alter_column_compression: {
    ...column,
    hazards: () => [], // values written from then on
    sql: (s) => [`${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} SET COMPRESSION ${s.compression}`],
    summary: (s) => `set compression of ${col(s)} to ${s.compression}`,
  },
  alter_column_options: {
    ...column,
    hazards: () => [], // for the next ANALYZE
    sql: (s) => [
      ...(s.reset.length > 0
        ? [`${alterOnly(s)} ALTER COLUMN ${quoteIdent(s.column)} RESET (${s.reset.join(', ')})`]
        : []),
      ...(s.set.length > 0
        ? [
            `${alterOnly(s)} ALTER COLUMN ${quoteIdent(s.column)} SET (${s.set.map(([k, v]) => `${k} = ${sqlNumber(v)}`).join(', ')})`,
          ]
        : []),
    ],
    summary: (s) =>
      `set options of ${col(s)}: ${[...s.set.map(([k, v]) => `${k} = ${v}`), ...s.reset.map((k) => `${k} reset`)].join(', ')}`,
  },
  alter_column_statistics: {
    ...column,
    hazards: () => [], // for the next ANALYZE
    sql: (s) => [`${alterOnly(s)} ALTER COLUMN ${quoteIdent(s.column)} SET STATISTICS ${sqlInt(s.statistics)}`],
    summary: (s) => `set statistics target of ${col(s)} to ${s.statistics < 0 ? 'the default' : s.statistics}`,
  },
  drop_column: {
    ...column,
    phase: () => 'prune',
    hazards: () => ['drops_data'],
    sql: (s) => [`${ALTER_TABLE(s.table)} DROP COLUMN ${quoteIdent(s.column)}`],
    summary: (s) => `drop column ${col(s)} (prune)`,
  },
  ...RETYPE_SPECS,
};
