// Step records of renames the manifest declares (`renamed_from`): tables, columns, indexes. They
// run right after what is dropped first (whose statements name the former names), before anything
// else, so every later step names the new ones.
import { quoteIdent } from '../../sql/quote.js';
import { PLAIN, type StepSpecs } from './spec-record.js';
import { ALTER_TABLE, q } from './sql-parts.js';
import { sequenceRef, tableRef } from '../../model/object-ref.js';

/** When a partition's copy of an index this plan makes is there to be renamed. */
const MADE_PHASE = { in_plan: 'tables', with_objects: 'objects', after_commit: 'after_commit' } as const;

export const RENAME_SPECS: StepSpecs<
  'rename_table' | 'rename_column' | 'rename_sequence' | 'rename_index' | 'rename_view' | 'name_partition_index'
> = {
  rename_table: {
    ...PLAIN,
    phase: () => 'renames',
    hazards: () => [],
    object: (s) => tableRef({ schema: s.table.schema, name: s.to }),
    sql: (s) => [`${ALTER_TABLE(s.table)} RENAME TO ${quoteIdent(s.to)}`],
    summary: (s) =>
      `rename table ${q(s.table)} to ${quoteIdent(s.to)} (its rows and dependents kept; clients naming ${q(s.table)} fail)`,
  },
  rename_column: {
    ...PLAIN,
    phase: () => 'renames',
    hazards: () => [],
    object: (s) => tableRef(s.table),
    sql: (s) => [`${ALTER_TABLE(s.table)} RENAME COLUMN ${quoteIdent(s.column)} TO ${quoteIdent(s.to)}`],
    summary: (s) => `rename column ${q(s.table)}.${quoteIdent(s.column)} to ${quoteIdent(s.to)} (its values kept)`,
  },
  rename_sequence: {
    ...PLAIN,
    phase: () => 'renames',
    hazards: () => [],
    object: (s) => sequenceRef({ schema: s.sequence.schema, name: s.to }),
    sql: (s) => [`ALTER SEQUENCE ${q(s.sequence)} RENAME TO ${quoteIdent(s.to)}`],
    summary: (s) => `rename sequence ${q(s.sequence)} to ${quoteIdent(s.to)} (its value kept)`,
  },
  rename_index: {
    ...PLAIN,
    phase: () => 'renames',
    hazards: () => [],
    object: (s) => tableRef(s.table),
    sql: (s) => [`ALTER INDEX ${q(s.index)} RENAME TO ${quoteIdent(s.to)}`],
    summary: (s) => `rename index ${q(s.index)} of ${q(s.table)} to ${quoteIdent(s.to)}`,
  },
  name_partition_index: {
    ...PLAIN,
    // (a copy this plan makes is renamed once it is there: after the tables', or after COMMIT)
    phase: (s) => (s.made === undefined ? 'renames' : MADE_PHASE[s.made]),
    hazards: () => [],
    object: (s) => tableRef(s.partition),
    sql: (s) => [`ALTER INDEX ${q(s.index)} RENAME TO ${quoteIdent(s.to)}`],
    summary: (s) =>
      `rename ${s.made ? 'the new ' : ''}index ${q(s.index)} of partition ${q(s.partition)} (its copy of ${quoteIdent(s.parent)}) to ${quoteIdent(s.to)}`,
  },
  rename_view: {
    ...PLAIN,
    phase: () => 'renames',
    hazards: () => [],
    object: (s) => s.object,
    sql: (s) => [`ALTER ${s.materialized ? 'MATERIALIZED VIEW' : 'VIEW'} ${q(s.view)} RENAME TO ${quoteIdent(s.to)}`],
    summary: (s) =>
      `rename ${s.materialized ? 'materialized view' : 'view'} ${q(s.view)} to ${quoteIdent(s.to)} (its grants and dependents kept${s.materialized ? ', its rows too' : ''})`,
  },
};
