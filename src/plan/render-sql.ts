// One SQL renderer and one summary per step kind. Every name and value goes through quote.ts.
import {
  quoteIdent,
  quoteLiteral,
  quoteQualified,
  quoteRegclass,
  sqlBool,
  sqlInt,
  type QualifiedName,
} from '../sql/quote.js';
import { DEFAULT_SHARD_COUNT, type Column, type Index, type Sequence } from '../model/types.js';
import { dispatch, type Step, type StepKind, type StepOf } from './steps.js';
import { RENDER_LAYOUT, SUMMARY_LAYOUT } from './render-layout.js';
import { renderShardRepair, summarizeShardRepair } from './render-shards.js';
import { keySql, RENDER_KEYS, SUMMARY_KEYS } from './render-keys.js';
import { lossyCast } from './lossy-cast.js';
import { routineSql } from './render-routines.js';

const cols = (names: readonly string[]): string => names.map(quoteIdent).join(', ');
const q = quoteQualified;
/** A collation as COLLATE takes it: schema-qualified when it is not pg_catalog's. */
const collationSql = (name: string, schema: string | undefined): string =>
  schema !== undefined ? quoteQualified({ schema, name }) : quoteIdent(name);

function columnSql(c: Column): string {
  return [
    `${quoteIdent(c.name)} ${c.type.sql}`,
    c.collation !== undefined ? ` COLLATE ${collationSql(c.collation, c.collationSchema)}` : '',
    c.generated !== undefined ? ` GENERATED ALWAYS AS (${c.generated}) STORED` : '',
    c.identity !== undefined ? ` GENERATED ${c.identity.toUpperCase()} AS IDENTITY` : '',
    c.notNull ? ' NOT NULL' : '',
    c.default !== undefined ? ` DEFAULT ${c.default}` : '',
  ].join('');
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
  ]
    .filter(Boolean)
    .join(' ');
}

function indexSql(table: QualifiedName, ix: Index, concurrently = false): string {
  return `CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX ${concurrently ? 'CONCURRENTLY ' : ''}${ix.name ? `${quoteIdent(ix.name)} ` : ''}ON ${q(table)} USING ${ix.using} (${cols(ix.columns)})`;
}

/** Statements written in the sql: files mean their unqualified names in the manifest's default schema. */
const searchPathSql = (schema: string | undefined): string[] =>
  schema === undefined ? [] : [`SET LOCAL search_path TO ${quoteIdent(schema)}`];

/** A routine reference for create_distributed_function: by signature, else resolved by name at apply time. */
function routineRef(s: StepOf<'distribute_routine'>): string {
  return s.signature !== undefined
    ? quoteLiteral(s.signature)
    : `${quoteRegclass(s.routine)}::regproc::oid::regprocedure`;
}

/** SQL statements of each kind, without trailing semicolons. */
export const RENDER_SQL: { readonly [K in StepKind]: (s: StepOf<K>) => readonly string[] } = {
  ...RENDER_LAYOUT,
  ...RENDER_KEYS,
  create_schema: (s) => [`CREATE SCHEMA ${quoteIdent(s.schema)}`],
  create_sequence: (s) => [`CREATE SEQUENCE ${q(s.sequence.qname)} ${sequenceOptions(s.sequence, true)}`],
  alter_sequence: (s) => [`ALTER SEQUENCE ${q(s.sequence.qname)} ${sequenceOptions(s.sequence, false)}`],
  create_table: (s) => {
    const body = [
      ...s.columns.map(columnSql),
      ...(s.primaryKey ? [keySql('PRIMARY KEY', s.primaryKey)] : []),
      ...s.unique.map((u) => keySql('UNIQUE', u)),
    ];
    const tail = [
      s.partitionBy !== undefined ? ` PARTITION BY ${s.partitionBy}` : '',
      s.accessMethod !== undefined ? ` USING ${quoteIdent(s.accessMethod)}` : '',
    ].join('');
    return [
      `CREATE ${s.unlogged ? 'UNLOGGED ' : ''}TABLE ${q(s.table)} (\n${body.map((l) => `    ${l}`).join(',\n')}\n)${tail}`,
    ];
  },
  create_index: (s) => [indexSql(s.table, s.index, s.concurrently)],
  // An unqualified CREATE lands in the first schema of search_path: pin it to the routine's schema.
  create_routine: (s) => routineSql(s),
  create_reference_table: (s) => [`SELECT create_reference_table(${quoteRegclass(s.table)})`],
  // Every argument explicit: Citus treats a NULL argument as a silent no-op.
  distribute_table: (s) => [
    s.colocateWith === 'none'
      ? `SELECT create_distributed_table(${quoteRegclass(s.table)}, ${quoteLiteral(s.column)}, colocate_with => 'none', shard_count => ${sqlInt(s.shardCount ?? DEFAULT_SHARD_COUNT)})`
      : `SELECT create_distributed_table(${quoteRegclass(s.table)}, ${quoteLiteral(s.column)}, colocate_with => ${quoteRegclass(s.colocateWith)})`,
  ],
  create_single_shard_table: (s) => [
    `SELECT create_distributed_table(${quoteRegclass(s.table)}, NULL, colocate_with => 'none')`,
  ],
  truncate_local_data: (s) => [`SELECT truncate_local_data_after_distributing_table(${quoteRegclass(s.table)})`],
  distribute_routine: (s) => [
    s.argIndex === undefined
      ? `SELECT create_distributed_function(${routineRef(s)}${s.colocateWith ? `, colocate_with => ${quoteRegclass(s.colocateWith)}` : ''})`
      : `SELECT create_distributed_function(${routineRef(s)}, ${quoteLiteral(`$${s.argIndex + 1}`)}, colocate_with => ${quoteRegclass(s.colocateWith!)}, force_delegation => ${sqlBool(s.forceDelegation ?? false)})`,
  ],
  alter_table_persistence: (s) => [`${ALTER_TABLE(s.table)} SET ${s.unlogged ? 'UNLOGGED' : 'LOGGED'}`],
  add_column: (s) => [`${ALTER_TABLE(s.table)} ADD COLUMN ${columnSql(s.column)}`],
  alter_column_type: (s) => [
    ...(s.resetDefault ? [`${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} DROP DEFAULT`] : []),
    `${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} TYPE ${s.type}${s.collation !== undefined ? ` COLLATE ${collationSql(s.collation, s.collationSchema)}` : ''}${s.using !== undefined ? ` USING ${s.using}` : ''}`,
    ...(s.resetDefault?.default !== undefined
      ? [`${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} SET DEFAULT ${s.resetDefault.default}`]
      : []),
  ],
  alter_column_identity: (s) => [
    `${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} ${
      s.identity === undefined
        ? 'DROP IDENTITY'
        : s.from === undefined
          ? `ADD GENERATED ${s.identity.toUpperCase()} AS IDENTITY`
          : `SET GENERATED ${s.identity.toUpperCase()}`
    }`,
  ],
  drop_column_expression: (s) => [`${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} DROP EXPRESSION`],
  alter_column_not_null: (s) => [
    `${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} ${s.notNull ? 'SET' : 'DROP'} NOT NULL`,
  ],
  alter_column_default: (s) => [
    `${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} ${s.default !== undefined ? `SET DEFAULT ${s.default}` : 'DROP DEFAULT'}`,
  ],
  drop_column: (s) => [`${ALTER_TABLE(s.table)} DROP COLUMN ${quoteIdent(s.column)}`],
  drop_index: (s) => [s.concurrently ? `DROP INDEX CONCURRENTLY IF EXISTS ${q(s.index)}` : `DROP INDEX ${q(s.index)}`],
  replace_routine: (s) => routineSql(s),
  drop_routine: (s) => [`DROP ${s.routineKind === 'procedure' ? 'PROCEDURE' : 'FUNCTION'} ${s.signature}`],
  undistribute_table: (s) => [`SELECT undistribute_table(${quoteRegclass(s.table)})`],
  alter_distributed_table: (s) => [alterDistributed(s)],
  update_colocation: (s) => [
    `SELECT update_distributed_table_colocation(${quoteRegclass(s.table)}, colocate_with => ${quoteRegclass(s.colocateWith)})`,
  ],
  repair_shard: renderShardRepair,
  alter_sequence_everywhere: (s) =>
    everywhere(`ALTER SEQUENCE ${q(s.sequence.qname)} CACHE ${sqlInt(s.sequence.cache)}`),
  drop_table: (s) => [`DROP TABLE ${q(s.table)}`],
  drop_sequence: (s) => [`DROP SEQUENCE ${q(s.sequence)}`],
  // No CASCADE: PostgreSQL refuses it if anything the plan does not drop is still in it.
  drop_schema: (s) => [`DROP SCHEMA ${quoteIdent(s.schema)}`],
  alter_column_storage: (s) => [
    `${ALTER_TABLE(s.table)} ALTER COLUMN ${quoteIdent(s.column)} SET STORAGE ${s.storage.toUpperCase()}`,
  ],
  // Grantees are quoted by the catalog query (quote_ident) or the SQL file's parse, as in every GRANT.
  revoke_default_privileges: (s) => [
    ...(s.grantees.length > 0 ? [`REVOKE ALL ON ${s.target} ${s.on} FROM ${s.grantees.join(', ')}`] : []),
    ...(s.grantPublic ? [`GRANT ${s.grantPublic.join(', ')} ON ${s.target} ${s.on} TO PUBLIC`] : []),
  ],
  // Citus refuses triggers on distributed tables unless told that the user accepts the risk.
  create_object: (s) => [
    ...searchPathSql(s.searchPath),
    ...(s.objectKind === 'trigger' ? ['SET LOCAL citus.enable_unsafe_triggers TO on'] : []),
    ...s.statements,
  ],
  alter_object: (s) => [...searchPathSql(s.searchPath), ...s.statements],
  drop_object: (s) => [...s.statements],
};

const ALTER_TABLE = (t: QualifiedName): string => `ALTER TABLE ${q(t)}`;

function alterDistributed(s: StepOf<'alter_distributed_table'>): string {
  const args = [quoteRegclass(s.table)];
  if (s.column !== undefined) args.push(`distribution_column := ${quoteLiteral(s.column)}`);
  if (s.shardCount !== undefined) args.push(`shard_count := ${sqlInt(s.shardCount)}`);
  if (s.colocateWith !== undefined)
    args.push(`colocate_with := ${s.colocateWith === 'none' ? "'none'" : quoteRegclass(s.colocateWith)}`);
  args.push(`cascade_to_colocated := ${sqlBool(s.cascade)}`);
  return `SELECT alter_distributed_table(${args.join(', ')})`;
}

/** Runs a statement on the coordinator and every worker with DDL propagation off: Citus refuses ALTER SEQUENCE on a distributed sequence otherwise. */
function everywhere(stmt: string): readonly string[] {
  return [
    'SET citus.enable_ddl_propagation TO off',
    stmt,
    'RESET citus.enable_ddl_propagation',
    `SELECT nodename, nodeport, success, result FROM run_command_on_workers(${quoteLiteral(`SET citus.enable_ddl_propagation TO off; ${stmt}`)})`,
  ];
}

const name = (x: QualifiedName): string => q(x);
const unchecked = (s: { uncheckedBody?: boolean }): string =>
  s.uncheckedBody ? ' (body not checked at CREATE: it reads what is created after it)' : '';

/** One-line human summary of each kind. */
export const SUMMARY: { readonly [K in StepKind]: (s: StepOf<K>) => string } = {
  ...SUMMARY_LAYOUT,
  ...SUMMARY_KEYS,
  create_schema: (s) => `create schema ${quoteIdent(s.schema)}`,
  create_sequence: (s) => `create sequence ${name(s.sequence.qname)} (${s.sequence.type}, cache ${s.sequence.cache})`,
  alter_sequence: (s) =>
    `set cache ${s.sequence.cache} on sequence ${name(s.sequence.qname)} before its table is distributed`,
  alter_table_persistence: (s) => `make ${name(s.table)} ${s.unlogged ? 'unlogged' : 'logged'}`,
  create_table: (s) =>
    `create ${s.unlogged ? 'unlogged ' : ''}${s.accessMethod ? `${s.accessMethod} ` : ''}${s.partitionBy ? 'partitioned ' : ''}table ${name(s.table)} (${s.columns.length} column${s.columns.length === 1 ? '' : 's'})`,
  create_index: (s) =>
    `create ${s.index.unique ? 'unique ' : ''}index ${s.concurrently ? 'concurrently ' : ''}on ${name(s.table)} (${cols(s.index.columns)})`,
  create_routine: (s) => `create ${s.routineKind} ${s.signature}${unchecked(s)}`,
  create_reference_table: (s) =>
    `make ${name(s.table)} a reference table${s.copiesData ? ' (copies its rows to every node)' : ''}`,
  distribute_table: (s) =>
    (s.colocateWith === 'none'
      ? `distribute ${name(s.table)} by ${quoteIdent(s.column)}: anchor of colocation group ${JSON.stringify(s.group)}, ${s.shardCount} shards`
      : `distribute ${name(s.table)} by ${quoteIdent(s.column)}, colocated with ${name(s.colocateWith)} (group ${JSON.stringify(s.group)})`) +
    (s.copiesData ? '; copies its rows into the shards' : ''),
  create_single_shard_table: (s) => `make ${name(s.table)} a single-shard distributed table`,
  truncate_local_data: (s) =>
    `remove the coordinator's local copy of ${name(s.table)}'s rows (they are in the shards now)`,
  distribute_routine: (s) =>
    s.argIndex === undefined
      ? `create ${s.signature ?? name(s.routine)} on every node (not delegated)${s.colocateWith ? `, colocated with ${name(s.colocateWith)}` : ''}`
      : `delegate calls of ${s.signature ?? name(s.routine)} by $${s.argIndex + 1} to the worker holding ${name(s.colocateWith!)}'s shard${s.forceDelegation ? ', even inside transactions' : ''}`,
  add_column: (s) => `add column ${quoteIdent(s.column.name)} ${s.column.type.sql} to ${name(s.table)}`,
  alter_column_type: (s) =>
    `change ${name(s.table)}.${quoteIdent(s.column)} from ${s.from} to ${s.type}${s.collation !== undefined ? ` COLLATE ${collationSql(s.collation, s.collationSchema)}` : ''}${s.using !== undefined ? ` (USING ${s.using})` : ''}${lossyCast(s.from, s.type) || s.using !== undefined ? `: values of ${quoteIdent(s.column)} may be rounded, truncated or refused` : ''}`,
  alter_column_identity: (s) =>
    `${s.identity === undefined ? 'drop identity of' : s.from === undefined ? `make identity (${s.identity})` : `make identity ${s.identity}`} ${name(s.table)}.${quoteIdent(s.column)}`,
  drop_column_expression: (s) =>
    `make ${name(s.table)}.${quoteIdent(s.column)} a plain column (drop its generation expression)`,
  alter_column_not_null: (s) => `${s.notNull ? 'set' : 'drop'} NOT NULL on ${name(s.table)}.${quoteIdent(s.column)}`,
  alter_column_default: (s) =>
    s.default !== undefined
      ? `set default of ${name(s.table)}.${quoteIdent(s.column)} to ${s.default}`
      : `drop default of ${name(s.table)}.${quoteIdent(s.column)}`,
  drop_column: (s) => `drop column ${name(s.table)}.${quoteIdent(s.column)} (prune)`,
  drop_index: (s) =>
    `drop index ${s.concurrently ? 'concurrently ' : ''}${name(s.index)} of ${name(s.table)} ${s.recreate ? '(to create it again)' : '(prune)'}`,
  replace_routine: (s) => `replace the body of ${s.routineKind} ${s.signature}${unchecked(s)}`,
  drop_routine: (s) =>
    s.reason === 'recreate'
      ? `drop ${s.routineKind} ${s.signature} to create it again (its result type or arguments changed)`
      : s.reason === 'signature'
        ? `drop ${s.routineKind} ${s.signature}: the manifest declares it with another argument list (its grants move to the new one)`
        : `drop ${s.routineKind} ${s.signature} (prune)`,
  undistribute_table: (s) => `undistribute ${name(s.table)}: its rows come back to the coordinator`,
  alter_distributed_table: (s) =>
    `rewrite ${name(s.table)}${s.column !== undefined ? ` to distribute by ${quoteIdent(s.column)}` : ''}${s.shardCount !== undefined ? ` with ${s.shardCount} shards` : ''}${s.colocateWith && s.colocateWith !== 'none' ? `, colocated with ${name(s.colocateWith)}` : ''} (group ${JSON.stringify(s.group)}${s.cascade ? ', with every table colocated with it' : ''})`,
  update_colocation: (s) =>
    `colocate ${name(s.table)} with ${name(s.colocateWith)} (group ${JSON.stringify(s.group)}; metadata only)`,
  repair_shard: summarizeShardRepair,
  alter_sequence_everywhere: (s) =>
    `set cache ${s.sequence.cache} on distributed sequence ${name(s.sequence.qname)} on every node, outside the transaction`,
  drop_table: (s) => `drop table ${name(s.table)} (prune)`,
  drop_sequence: (s) => `drop sequence ${name(s.sequence)} (prune)`,
  drop_schema: (s) => `drop schema ${quoteIdent(s.schema)} (prune)`,
  alter_column_storage: (s) => `set storage of ${name(s.table)}.${quoteIdent(s.column)} to ${s.storage}`,
  revoke_default_privileges: (s) =>
    [
      ...(s.grantees.length > 0 ? [`revoke what default privileges give ${s.grantees.join(', ')}`] : []),
      ...(s.grantPublic ? [`give PUBLIC back the ${s.grantPublic.join(', ')} default privileges take away`] : []),
    ].join(' and ') + ` on new ${s.object} (the manifest declares its privileges)`,
  create_object: (s) => `${s.recreate ? 'create again' : 'create'} ${s.object}`,
  alter_object: (s) => `${s.what} ${s.object}`,
  drop_object: (s) =>
    `drop ${s.object}${s.reason === 'recreate' ? ' (to create it again)' : s.reason === 'prune' ? ' (prune)' : ' (prune: it depends on what this plan changes)'}`,
};

export const renderSql = (s: Step): readonly string[] => {
  const sql = s.pausedTriggers
    ? [...s.pausedTriggers.pause, ...dispatch(RENDER_SQL, s), ...s.pausedTriggers.resume]
    : dispatch(RENDER_SQL, s);
  if (!s.unsafeTriggers) return sql;
  // create_distributed_table_concurrently runs outside any transaction: SET LOCAL would not hold.
  return s.kind === 'distribute_table_concurrently'
    ? ['SET citus.enable_unsafe_triggers TO on', ...sql, 'RESET citus.enable_unsafe_triggers']
    : ['SET LOCAL citus.enable_unsafe_triggers TO on', ...sql];
};
export const summarize = (s: Step): string => dispatch(SUMMARY, s);
