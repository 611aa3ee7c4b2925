// One SQL renderer and one summary per step kind. Every name and value goes through quote.ts.
import { quoteIdent, quoteLiteral, quoteQualified, quoteRegclass, sqlBool, sqlInt, type QualifiedName } from '../sql/quote.js';
import type { Column, ForeignKey, Index, Sequence } from '../model/types.js';
import { dispatch, type Step, type StepKind, type StepOf } from './steps.js';

const cols = (names: readonly string[]): string => names.map(quoteIdent).join(', ');
const q = quoteQualified;

function columnSql(c: Column): string {
  return `${quoteIdent(c.name)} ${c.type.sql}${c.notNull ? ' NOT NULL' : ''}${c.default !== undefined ? ` DEFAULT ${c.default}` : ''}`;
}

function sequenceOptions(s: Sequence, withType: boolean): string {
  return [
    withType ? `AS ${s.type}` : '',
    s.increment !== undefined ? `INCREMENT BY ${sqlInt(s.increment)}` : '',
    s.min !== undefined ? `MINVALUE ${sqlInt(s.min)}` : '',
    s.max !== undefined ? `MAXVALUE ${sqlInt(s.max)}` : '',
    s.start !== undefined ? `START WITH ${sqlInt(s.start)}` : '',
    `CACHE ${sqlInt(s.cache)}`,
    s.cycle ? 'CYCLE' : '',
  ].filter(Boolean).join(' ');
}

function fkSql(fk: ForeignKey, ref: QualifiedName): string {
  return [
    fk.name ? `CONSTRAINT ${quoteIdent(fk.name)} ` : '',
    `FOREIGN KEY (${cols(fk.columns)}) REFERENCES ${q(ref)} (${cols(fk.refColumns)})`,
    fk.onDelete ? ` ON DELETE ${fk.onDelete.toUpperCase()}` : '',
    fk.onUpdate ? ` ON UPDATE ${fk.onUpdate.toUpperCase()}` : '',
  ].join('');
}

function indexSql(table: QualifiedName, ix: Index): string {
  return `CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX ${ix.name ? `${quoteIdent(ix.name)} ` : ''}ON ${q(table)} USING ${ix.using} (${cols(ix.columns)})`;
}

/** A routine reference for create_distributed_function: by signature, else resolved by name at apply time. */
function routineRef(s: StepOf<'distribute_routine'>): string {
  return s.signature !== undefined ? quoteLiteral(s.signature) : `${quoteRegclass(s.routine)}::regproc::oid::regprocedure`;
}

/** SQL statements of each kind, without trailing semicolons. */
export const RENDER_SQL: { readonly [K in StepKind]: (s: StepOf<K>) => readonly string[] } = {
  create_schema: (s) => [`CREATE SCHEMA ${quoteIdent(s.schema)}`],
  create_sequence: (s) => [`CREATE SEQUENCE ${q(s.sequence.qname)} ${sequenceOptions(s.sequence, true)}`],
  alter_sequence: (s) => [`ALTER SEQUENCE ${q(s.sequence.qname)} ${sequenceOptions(s.sequence, false)}`],
  create_table: (s) => {
    const body = [
      ...s.columns.map(columnSql),
      ...(s.primaryKey ? [`PRIMARY KEY (${cols(s.primaryKey)})`] : []),
      ...s.unique.map((u) => `UNIQUE (${cols(u)})`),
    ];
    return [`CREATE TABLE ${q(s.table)} (\n${body.map((l) => `    ${l}`).join(',\n')}\n)`];
  },
  create_index: (s) => [indexSql(s.table, s.index)],
  // An unqualified CREATE lands in the first schema of search_path: pin it to the routine's schema.
  create_routine: (s) => [...(s.searchPath !== undefined ? [`SET LOCAL search_path TO ${quoteIdent(s.searchPath)}`] : []), s.definition],
  create_reference_table: (s) => [`SELECT create_reference_table(${quoteRegclass(s.table)})`],
  // Every argument explicit: Citus treats a NULL argument as a silent no-op.
  distribute_table: (s) => [s.colocateWith === 'none'
    ? `SELECT create_distributed_table(${quoteRegclass(s.table)}, ${quoteLiteral(s.column)}, colocate_with => 'none', shard_count => ${sqlInt(s.shardCount ?? 32)})`
    : `SELECT create_distributed_table(${quoteRegclass(s.table)}, ${quoteLiteral(s.column)}, colocate_with => ${quoteRegclass(s.colocateWith)})`],
  create_single_shard_table: (s) => [`SELECT create_distributed_table(${quoteRegclass(s.table)}, NULL, colocate_with => 'none')`],
  add_foreign_key: (s) => [`ALTER TABLE ${q(s.table)} ADD ${fkSql(s.fk, s.refTable)}`],
  truncate_local_data: (s) => [`SELECT truncate_local_data_after_distributing_table(${quoteRegclass(s.table)})`],
  distribute_routine: (s) => [s.argIndex === undefined
    ? `SELECT create_distributed_function(${routineRef(s)})`
    : `SELECT create_distributed_function(${routineRef(s)}, ${quoteLiteral(`$${s.argIndex + 1}`)}, colocate_with => ${quoteRegclass(s.colocateWith!)}, force_delegation => ${sqlBool(s.forceDelegation ?? false)})`],
};

const name = (x: QualifiedName): string => q(x);

/** One-line human summary of each kind. */
export const SUMMARY: { readonly [K in StepKind]: (s: StepOf<K>) => string } = {
  create_schema: (s) => `create schema ${quoteIdent(s.schema)}`,
  create_sequence: (s) => `create sequence ${name(s.sequence.qname)} (${s.sequence.type}, cache ${s.sequence.cache})`,
  alter_sequence: (s) => `set cache ${s.sequence.cache} on sequence ${name(s.sequence.qname)} before its table is distributed`,
  create_table: (s) => `create table ${name(s.table)} (${s.columns.length} column${s.columns.length === 1 ? '' : 's'})`,
  create_index: (s) => `create ${s.index.unique ? 'unique ' : ''}index on ${name(s.table)} (${cols(s.index.columns)})`,
  create_routine: (s) => `create ${s.routineKind} ${s.signature}`,
  create_reference_table: (s) => `make ${name(s.table)} a reference table${s.copiesData ? ' (copies its rows to every node)' : ''}`,
  distribute_table: (s) => (s.colocateWith === 'none'
    ? `distribute ${name(s.table)} by ${quoteIdent(s.column)}: anchor of colocation group ${JSON.stringify(s.group)}, ${s.shardCount} shards`
    : `distribute ${name(s.table)} by ${quoteIdent(s.column)}, colocated with ${name(s.colocateWith)} (group ${JSON.stringify(s.group)})`)
    + (s.copiesData ? '; copies its rows into the shards' : ''),
  create_single_shard_table: (s) => `make ${name(s.table)} a single-shard distributed table`,
  add_foreign_key: (s) => `add foreign key ${name(s.table)} (${cols(s.fk.columns)}) -> ${name(s.refTable)} (${cols(s.fk.refColumns)})`,
  truncate_local_data: (s) => `remove the coordinator's local copy of ${name(s.table)}'s rows (they are in the shards now)`,
  distribute_routine: (s) => (s.argIndex === undefined
    ? `create ${s.signature ?? name(s.routine)} on every node (not delegated)`
    : `delegate calls of ${s.signature ?? name(s.routine)} by $${s.argIndex + 1}${s.argName ? ` (${quoteIdent(s.argName)})` : ''} to the worker holding ${name(s.colocateWith!)}'s shard${s.forceDelegation ? ', even inside transactions' : ''}`),
};

export const renderSql = (s: Step): readonly string[] => dispatch(RENDER_SQL, s);
export const summarize = (s: Step): string => dispatch(SUMMARY, s);
