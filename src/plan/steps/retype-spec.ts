// The steps of an online type change (plan/retype.ts), part of the Step union (columns.ts), and
// their records: the shadow column and its sync trigger in the plan's transaction; after COMMIT,
// the fill (backfill_column), the shadow's indexes built concurrently, the marker validated and
// the swap in one short transaction.
import { tableRef } from '../../model/object-ref.js';
import { quoteIdent, quoteQualified, sqlInt, type QualifiedName } from '../../sql/quote.js';
import { createSyncSql, dropSyncSql } from '../fill.js';
import { PLAN_SEARCH_PATH } from '../pinned-settings.js';
import { lossyCast } from './lossy-cast.js';
import { PLAIN, type StepSpecs } from './spec-record.js';
import { ALTER_TABLE, collationSql, deferralSql, q } from './sql-parts.js';
import type { Deferral } from '../../model/types.js';
import type { Phase } from './steps.js';

export type RetypeStep =
  | {
      /** In the transaction: the shadow column of the new type, kept in step by a trigger, and the marker. */
      readonly kind: 'start_retype';
      readonly table: QualifiedName;
      readonly column: string;
      readonly shadow: string;
      readonly marker: string;
      readonly type: string;
      readonly from: string;
      readonly collation?: string;
      readonly collationSchema?: string;
      readonly using?: string;
      /** NOT NULL declared: the marker is CHECK (shadow IS NOT NULL), and proves it at the swap. */
      readonly notNull: boolean;
      readonly storage?: string;
      readonly statistics?: number;
    }
  | {
      /** After COMMIT, once filled and the marker validated: the old column dropped and the shadow renamed in its place. */
      readonly kind: 'finish_retype';
      readonly table: QualifiedName;
      readonly column: string;
      readonly shadow: string;
      readonly marker: string;
      readonly type: string;
      readonly notNull: boolean;
      readonly default?: string;
      /** The shadow's indexes, renamed to the names of the column's. */
      readonly indexes: readonly { readonly shadow: string; readonly name: string }[];
      /** The keys over the column: their unique indexes built on the shadow, added USING INDEX (renamed to the key's name). */
      readonly keys: readonly ({
        readonly kind: 'primary' | 'unique';
        readonly name: string;
        readonly shadow: string;
      } & Deferral)[];
      /** Statements the column's comment and grants are set again with (DROP COLUMN takes them). */
      readonly carried: readonly string[];
    }
  | {
      /** In the transaction: an online type change an interrupted apply left, that this plan does not finish. */
      readonly kind: 'abort_retype';
      readonly table: QualifiedName;
      readonly column: string;
      readonly shadow: string;
      readonly type: string;
    };

const column = { ...PLAIN, phase: (): Phase => 'tables', object: (s: RetypeStep) => tableRef(s.table) } as const;
const col = (s: { readonly table: QualifiedName; readonly column: string }): string =>
  `${q(s.table)}.${quoteIdent(s.column)}`;

/** The sync trigger's body: the shadow computed from the row as ALTER COLUMN … TYPE would (an assignment cast, or USING). */
function syncBody(s: { readonly column: string; readonly shadow: string; readonly using?: string }): string {
  const target = `NEW.${quoteIdent(s.shadow)}`;
  if (s.using === undefined) return `${target} := NEW.${quoteIdent(s.column)};`;
  return `SELECT (${s.using}) INTO ${target} FROM (SELECT NEW.*) AS r;`;
}

/** The marker: the shadow is filled wherever the column's new value is not NULL. */
function markerCheck(s: Extract<RetypeStep, { kind: 'start_retype' }>): string {
  const shadow = quoteIdent(s.shadow);
  if (s.notNull) return `${shadow} IS NOT NULL`;
  return `${shadow} IS NOT NULL OR (${s.using ?? quoteIdent(s.column)}) IS NULL`;
}

export const RETYPE_SPECS: StepSpecs<RetypeStep['kind']> = {
  start_retype: {
    ...column,
    hazards: (s) => (lossyCast(s.from, s.type) || s.using !== undefined ? ['drops_data'] : []),
    sql: (s) => [
      `${ALTER_TABLE(s.table)} ADD COLUMN ${quoteIdent(s.shadow)} ${s.type}${s.collation !== undefined ? ` COLLATE ${collationSql(s.collation, s.collationSchema)}` : ''}`,
      ...(s.storage !== undefined
        ? [`${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.shadow)} SET STORAGE ${s.storage.toUpperCase()}`]
        : []),
      ...(s.statistics !== undefined
        ? [`${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.shadow)} SET STATISTICS ${sqlInt(s.statistics)}`]
        : []),
      ...createSyncSql(
        s.table,
        s.column,
        'INSERT OR UPDATE',
        syncBody(s),
        s.using === undefined ? 'pg_catalog, pg_temp' : PLAN_SEARCH_PATH,
        undefined,
        s.using === undefined ? '' : '#variable_conflict use_column',
      ),
      `${ALTER_TABLE(s.table)} ADD CONSTRAINT ${quoteIdent(s.marker)} CHECK (${markerCheck(s)}) NOT VALID`,
    ],
    summary: (s) =>
      `change ${col(s)} from ${s.from} to ${s.type} online: add ${quoteIdent(s.shadow)} ${s.type}, kept in step with it by a trigger on every write${s.using !== undefined ? ` (USING ${s.using})` : ''}, and the marker ${quoteIdent(s.marker)}${lossyCast(s.from, s.type) || s.using !== undefined ? `: values of ${quoteIdent(s.column)} may be rounded, truncated or refused` : ''}`,
  },
  finish_retype: {
    ...column,
    hazards: () => [],
    sql: (s) => {
      const c = quoteIdent(s.column);
      const marker = `${ALTER_TABLE(s.table)} DROP CONSTRAINT ${quoteIdent(s.marker)}`;
      return [
        ...dropSyncSql(s.table, s.column),
        ...(s.notNull ? [] : [marker]),
        `${ALTER_TABLE(s.table)} DROP COLUMN ${c}`,
        `${ALTER_TABLE(s.table)} RENAME COLUMN ${quoteIdent(s.shadow)} TO ${c}`,
        ...(s.default !== undefined ? [`${ALTER_TABLE(s.table)} ALTER COLUMN ${c} SET DEFAULT ${s.default}`] : []),
        ...(s.notNull ? [`${ALTER_TABLE(s.table)} ALTER COLUMN ${c} SET NOT NULL`, marker] : []),
        ...s.keys.map(
          (k) =>
            `${ALTER_TABLE(s.table)} ADD CONSTRAINT ${quoteIdent(k.name)} ${k.kind === 'primary' ? 'PRIMARY KEY' : 'UNIQUE'} USING INDEX ${quoteIdent(k.shadow)}${deferralSql(k)}`,
        ),
        ...s.indexes.map(
          (ix) =>
            `ALTER INDEX ${quoteQualified({ schema: s.table.schema, name: ix.shadow })} RENAME TO ${quoteIdent(ix.name)}`,
        ),
        ...s.carried,
      ];
    },
    summary: (s) =>
      `swap ${col(s)} for ${quoteIdent(s.shadow)} (${s.type}) in one short transaction: drop the trigger and the old column, rename the shadow${s.notNull ? ', SET NOT NULL (proved by the validated marker: no scan)' : ''}${s.keys.length > 0 ? `, add ${s.keys.map((k) => quoteIdent(k.name)).join(', ')} using the index built on it` : ''}${s.indexes.length > 0 ? `, rename ${s.indexes.length === 1 ? 'its index' : `its ${s.indexes.length} indexes`}` : ''}; ${quoteIdent(s.column)} becomes the last of the columns (an INSERT without a column list, or SELECT *, sees another order)`,
  },
  abort_retype: {
    ...column,
    hazards: () => [],
    sql: (s) => [
      ...dropSyncSql(s.table, s.column),
      `${ALTER_TABLE(s.table)} DROP COLUMN IF EXISTS ${quoteIdent(s.shadow)}`,
    ],
    summary: (s) =>
      `drop the unfinished online change of ${col(s)} to ${s.type} an interrupted apply left (${quoteIdent(s.shadow)}, its trigger and marker): this plan does not finish it`,
  },
};
