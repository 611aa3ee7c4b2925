// SQL fragments more than one group of step records builds on. Every name and value goes
// through quote.ts.
import type { Column, Deferral, Index, Key } from '../../model/types.js';
import { identityOptionsSql } from './render-sequences.js';
import { dollarTag, quoteIdent, quoteQualified, typedLiteral, type QualifiedName } from '../../sql/quote.js';

export const q = quoteQualified;
export const cols = (names: readonly string[]): string => names.map(quoteIdent).join(', ');
export const ALTER_TABLE = (t: QualifiedName): string => `ALTER TABLE ${q(t)}`;

/** A collation as COLLATE takes it: schema-qualified when it is not pg_catalog's. */
export const collationSql = (name: string, schema: string | undefined): string =>
  schema !== undefined ? quoteQualified({ schema, name }) : quoteIdent(name);

/** A column's definition; `schema` is its table's, where an identity sequence with a name of its own goes. */
export function columnSql(c: Column, schema: string): string {
  return [
    `${quoteIdent(c.name)} ${c.type.sql}`,
    c.compression !== undefined ? ` COMPRESSION ${c.compression}` : '',
    c.collation !== undefined ? ` COLLATE ${collationSql(c.collation, c.collationSchema)}` : '',
    c.generated !== undefined ? ` GENERATED ALWAYS AS (${c.generated}) STORED` : '',
    c.identity !== undefined
      ? ` GENERATED ${c.identity.toUpperCase()} AS IDENTITY${identityOptionsSql(c.identityOptions, c.identitySequence === undefined ? undefined : { schema, name: c.identitySequence })}`
      : '',
    c.notNull ? ' NOT NULL' : '',
    c.default !== undefined ? ` DEFAULT ${c.default}` : '',
  ].join('');
}

export function indexSql(table: QualifiedName, ix: Index, concurrently = false): string {
  return `CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX ${concurrently ? 'CONCURRENTLY ' : ''}${ix.name ? `${quoteIdent(ix.name)} ` : ''}ON ${q(table)} USING ${ix.using} (${cols(ix.columns)})`;
}

/**
 * An index built CONCURRENTLY, after COMMIT, one shard after another on each worker (Citus's
 * executor builds a distributed table's shard indexes over up to
 * citus.max_adaptive_executor_pool_size connections per worker at once, 16 by default: the
 * builds then take the workers' cores from the application's writes). Set for the statement's
 * time; on plain PostgreSQL the setting is a placeholder that does nothing.
 */
export const oneShardAtATime = (stmts: readonly string[]): string[] => [
  'SET citus.max_adaptive_executor_pool_size TO 1',
  ...stmts,
  'RESET citus.max_adaptive_executor_pool_size',
];

/** ` DEFERRABLE`, ` DEFERRABLE INITIALLY DEFERRED` or nothing (NOT DEFERRABLE, PostgreSQL's default). */
export const deferralSql = (d: Deferral): string =>
  d.initiallyDeferred ? ' DEFERRABLE INITIALLY DEFERRED' : d.deferrable ? ' DEFERRABLE' : '';

/** `[CONSTRAINT name] PRIMARY KEY (a, b) [DEFERRABLE …]`: the declared name, else PostgreSQL's default. */
export function keySql(what: 'PRIMARY KEY' | 'UNIQUE', k: Key): string {
  return `${k.name !== undefined ? `CONSTRAINT ${quoteIdent(k.name)} ` : ''}${what}${k.nullsNotDistinct ? ' NULLS NOT DISTINCT' : ''} (${cols(k.columns)})${k.include?.length ? ` INCLUDE (${cols(k.include)})` : ''}${k.tablespace !== undefined ? ` USING INDEX TABLESPACE ${k.tablespace}` : ''}${deferralSql(k)}`;
}

/** Runs a statement on the coordinator and every worker with DDL propagation off: Citus refuses ALTER SEQUENCE on a distributed sequence otherwise. */
export function everywhere(stmt: string): readonly string[] {
  return [
    'SET citus.enable_ddl_propagation TO off',
    stmt,
    // Back to the pinned value, not RESET (the database's default may be off).
    'SET citus.enable_ddl_propagation TO on',
    onWorkers(['SET LOCAL search_path = pg_catalog, pg_temp', stmt]),
  ];
}

/**
 * `statements` run on every worker as one block, with DDL propagation off there: a row per worker,
 * one with success = false failing its step (apply/batch.ts).
 */
export function onWorkers(statements: readonly string[]): string {
  const block = workerBlock(['SET LOCAL citus.enable_ddl_propagation TO off', ...statements]);
  return `SELECT nodename, nodeport, success, result FROM pg_catalog.run_command_on_workers(${typedLiteral(block, 'text')})`;
}

/**
 * Statements for run_command_on_workers as one: a DO block. Given several statements, it reports
 * the first one's result only, so a later one that fails on a worker reads as a success
 * (docs/citus-facts.md); a block fails as a whole.
 */
export function workerBlock(statements: readonly string[]): string {
  const text = statements.join(';\n');
  const tag = dollarTag(text, 'citus_migrate');
  return `DO ${tag} BEGIN\n${text};\nEND ${tag}`;
}
