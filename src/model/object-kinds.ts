// The kinds of objects defined by SQL (the `sql:` files; model/types.ts's SqlObject), and what a
// partition's own key or foreign key declares beyond its statement.
/** Kinds of objects defined by SQL statements (the `sql:` files), compared by their definitions. */
export const OBJECT_KINDS = [
  'extension',
  'language',
  'access method',
  'foreign data wrapper',
  'transform',
  'collation',
  'text search parser',
  'text search template',
  'text search dictionary',
  'text search configuration',
  'shell type',
  'base type',
  'enum',
  'domain',
  'composite type',
  'range type',
  'view',
  'materialized view',
  'foreign server',
  'user mapping',
  'foreign table',
  'aggregate',
  'operator',
  'operator family',
  'operator class',
  'cast',
  'conversion',
  'index',
  'statistics object',
  'check constraint',
  'exclusion constraint',
  'primary key',
  'unique constraint',
  'foreign key',
  'column default',
  'not null',
  'column compression',
  'column setting',
  'trigger',
  'trigger state',
  'rule',
  'row level security',
  'policy',
  'replica identity',
  'cluster on',
  'tablespace',
  'sequence persistence',
  'comment',
  'privileges',
  'owner',
  'extension dependency',
  'publication',
  'subscription',
  'event trigger',
] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];

/** A key's or foreign key's columns, and what it references (a table id, its columns). */
export interface KeyRefs {
  readonly columns: readonly string[];
  readonly refTable?: string;
  readonly refColumns?: readonly string[];
}
